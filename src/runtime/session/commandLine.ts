/** The app's command bar commands. */
export const appCommands = [
  { name: 'checkpoint', usage: '/checkpoint [label]', help: 'take a checkpoint now' },
  { name: 'checkpoints', usage: '/checkpoints', help: 'checkpoint count, disk usage and the last notices, whole' },
  { name: 'rewind', usage: '/rewind', help: 'open the rewind picker (also Esc Esc)' },
  { name: 'redo', usage: '/redo', help: 'undo the last rewind' },
  { name: 'bisect', usage: '/bisect <test>', help: 'find the first checkpoint where a test fails (in the background; Esc Esc then opens it)' },
  { name: 'config', usage: '/config', help: 'where config.json is, and the settings in force' },
  { name: 'help', usage: '/help', help: 'this list' },
  { name: 'quit', usage: '/quit', help: 'stop the agent and leave rewind' },
] as const;

export type AppCommandName = (typeof appCommands)[number]['name'];

export type ParsedCommand = { ok: true; name: AppCommandName; argument: string } | { ok: false; error: string };

/** Parses a command bar line: `/name [argument]` (the slash is optional). */
export function parseCommandLine(line: string): ParsedCommand {
  const trimmed = line.trim().replace(/^\//, '');
  if (trimmed === '') return { ok: false, error: 'type a command, e.g. /checkpoint before refactor (Esc closes)' };
  const space = trimmed.search(/\s/);
  const word = (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  const argument = space < 0 ? '' : trimmed.slice(space + 1).trim();
  const exact = appCommands.find((command) => command.name === word);
  const prefixed = appCommands.filter((command) => command.name.startsWith(word));
  const match = exact ?? (prefixed.length === 1 ? prefixed[0] : undefined);
  if (!match && prefixed.length > 1) return { ok: false, error: `/${word} is more than one command: ${prefixed.map((command) => `/${command.name}`).join(' or ')}` };
  if (!match) {
    const known = appCommands.map((command) => `/${command.name}`).join(' ');
    return { ok: false, error: `unknown command /${word}: try ${known}` };
  }
  return { ok: true, name: match.name, argument };
}

/** The command word typed so far (no slash, lower case), and whether an argument follows it. */
function typedWord(text: string): { word: string; argument: boolean; slash: boolean } {
  const slash = text.trimStart().startsWith('/');
  const trimmed = text.trimStart().replace(/^\//, '');
  const space = trimmed.search(/\s/);
  return { word: (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase(), argument: space >= 0, slash };
}

function commandsStartingWith(word: string): (typeof appCommands)[number][] {
  return appCommands.filter((command) => command.name.startsWith(word));
}

/**
 * What the command bar shows beside the typed text: the commands that match it (all of them
 * while nothing is typed), what the one it names does, or that none does.
 */
export function commandHint(text: string): string {
  const { word, argument } = typedWord(text);
  const exact = appCommands.find((command) => command.name === word);
  const matches = commandsStartingWith(word);
  if (argument || (exact && matches.length === 1)) {
    const command = exact ?? (matches.length === 1 ? matches[0] : undefined);
    if (!command) return `no command /${word}: Esc closes · /help lists them`;
    return `${command.usage}: ${command.help} · Enter runs`;
  }
  if (matches.length === 0) return `no command starts with /${word} · Backspace to fix, Esc closes`;
  const listed = matches.map((command) => command.usage).join('  ');
  const tab = completeCommand(text) !== text ? ' · Tab completes' : '';
  if (matches.length === 1) return `${listed}: ${matches[0]?.help ?? ''}${tab} · Enter runs`;
  return word === '' ? `${listed} · Esc closes` : `${listed}${tab}`;
}

/**
 * Tab in the command bar: the command word completed as far as the commands that match it
 * agree (`/red` → `/redo `, `/chec` → `/checkpoint`); a space after a word only one
 * command has. Text with an argument, or that no command matches, stays as it is.
 */
export function completeCommand(text: string): string {
  const { word, argument, slash } = typedWord(text);
  const matches = commandsStartingWith(word);
  if (argument || word === '' || matches.length === 0) return text;
  const names = matches.map((command) => command.name);
  let common = names[0] ?? '';
  for (const name of names) while (!name.startsWith(common)) common = common.slice(0, -1);
  const unique = names.length === 1;
  return `${slash ? '/' : ''}${common}${unique ? ' ' : ''}`;
}

/**
 * The command bar's text after typed bytes: text appended, Backspace, Ctrl-U clears, Tab
 * completes the command (completeCommand); a paste's markers and other control bytes dropped.
 */
export function editCommandLine(text: string, typed: string): string {
  const pasteMarkers = new RegExp(String.raw`\x1b\[20[01]~`, 'g');
  let line = text;
  for (const char of typed.replace(pasteMarkers, '')) {
    if (char === '\x7f' || char === '\b') line = line.slice(0, -1);
    else if (char === '\x15') line = '';
    else if (char === '\t') line = completeCommand(line);
    else if (char >= ' ') line += char;
  }
  return line;
}
