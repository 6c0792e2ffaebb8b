/** The app's command bar commands. */
export const appCommands = [
  { name: 'checkpoint', usage: '/checkpoint [label]', help: 'take a checkpoint now' },
  { name: 'checkpoints', usage: '/checkpoints', help: 'checkpoint count and disk usage' },
  { name: 'rewind', usage: '/rewind', help: 'open the rewind picker (also Esc Esc)' },
  { name: 'redo', usage: '/redo', help: 'undo the last rewind' },
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
  if (!match) {
    const known = appCommands.map((command) => `/${command.name}`).join(' ');
    return { ok: false, error: `unknown command /${word}: try ${known}` };
  }
  return { ok: true, name: match.name, argument };
}

/** The command bar's text after typed bytes: text appended, Backspace, Ctrl-U clears; a paste's markers and other control bytes dropped. */
export function editCommandLine(text: string, typed: string): string {
  const pasteMarkers = new RegExp(String.raw`\x1b\[20[01]~`, 'g');
  let line = text;
  for (const char of typed.replace(pasteMarkers, '')) {
    if (char === '\x7f' || char === '\b') line = line.slice(0, -1);
    else if (char === '\x15') line = '';
    else if (char >= ' ') line += char;
  }
  return line;
}
