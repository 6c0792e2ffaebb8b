// The help, printed from the command table (table.ts): `rewind --help` and each command's
// `--help`. The README's command list is usageLines() as they are (test/commands/help.test.ts).
import { commandNames, commandTable, type CommandName, type CommandSpec, type HelpFacts, type HelpText } from './table.js';

/** Where a usage line's summary starts, and how wide a line of help may run. */
const summaryColumn = 42;
const width = 92;

const textOf = (value: HelpText | undefined, facts: Partial<HelpFacts>): string | undefined => (typeof value === 'function' ? value(facts) : value);

/** What follows `rewind <name>` (without -C DIR). */
export function synopsisOf(spec: CommandSpec): string {
  if (spec.forms) return `[${spec.forms.flatMap((form) => (form.args === '' ? [] : [form.args])).join('|')}]`;
  return spec.synopsis ?? '';
}

/** `rewind <name> <synopsis>`, the name in brackets for the command also reached without it. */
function commandLine(name: CommandName, spec: CommandSpec): string {
  return ['rewind', spec.bare ? `[${name}]` : name, synopsisOf(spec)].filter((part) => part !== '').join(' ');
}

/** A usage line and its summary: in the summaries' column, else two spaces after it, else on the next line. */
function withSummary(line: string, summary: string): string[] {
  if (line.length + 2 <= summaryColumn) return [`${line.padEnd(summaryColumn)}${summary}`];
  if (line.length + 2 + summary.length <= width) return [`${line}  ${summary}`];
  return [line, `${' '.repeat(summaryColumn)}${summary}`];
}

/** Every command's usage and summary, in the table's order: `rewind --help` and the README's list. */
export function usageLines(): string[] {
  return commandNames.flatMap((name) => withSummary(commandLine(name, commandTable[name]), commandTable[name].summary));
}

/** `rewind --help`. */
export function usage(): string {
  const noDir = commandNames.filter((name) => !commandTable[name].dir);
  const but = noDir.length === 0 ? 'all' : `all but ${noDir.length === 1 ? noDir[0] : `${noDir.slice(0, -1).join(', ')} and ${noDir.at(-1)}`}`;
  return `rewind: the undo button for AI coding agents

Usage:
${usageLines().map((line) => `  ${line}`.trimEnd()).join('\n')}

Every command takes --help, and ${but} take -C DIR (default: the current directory).
Environment: REWIND_HOME (checkpoint stores), REWIND_CONFIG_DIR (config.json folder).

Examples:
  rewind demo                  # try it on a pretend agent, in a sandbox
  rewind -- claude             # your agent, with a checkpoint before every step
  rewind list && rewind restore 12`;
}

/** `text` in lines of at most `room` characters; a word longer than that is broken after its commas. */
function wrap(text: string, room: number): string[] {
  const pieces = text.split(' ').flatMap((word) => (word.length <= room ? [{ part: word, space: true }] : word.split(/(?<=,)/).map((part, index) => ({ part, space: index === 0 }))));
  const lines: string[] = [];
  let line = '';
  for (const { part, space } of pieces) {
    const longer = line === '' ? part : `${line}${space ? ' ' : ''}${part}`;
    if (line !== '' && longer.length > room) {
      lines.push(line);
      line = part;
    } else {
      line = longer;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The options block: each option, its value's name and what it does, wrapped under itself. */
function optionLines(spec: CommandSpec, facts: Partial<HelpFacts>): string[] {
  const flags = Object.entries(spec.options).map(([name, option]) => ({ flag: `--${name}${option.arg ? ` ${option.arg}` : ''}`, help: textOf(option.help, facts) ?? '' }));
  const column = Math.max(...flags.map(({ flag }) => flag.length)) + 2;
  return flags.flatMap(({ flag, help }) => wrap(help, width - column - 2).map((line, index) => `  ${(index === 0 ? flag : '').padEnd(column)}${line}`));
}

/** The Usage block: the command's line(s) with -C DIR, or its forms each with what it does. */
function usageBlock(name: CommandName, spec: CommandSpec): string {
  if (spec.forms) {
    const lines = spec.forms.map((form) => `rewind ${name}${form.args === '' ? '' : ` ${form.args}`}`);
    const column = Math.max(...lines.map((line) => line.length)) + 3;
    return `Usage:\n${lines.map((line, index) => `  ${line.padEnd(column)}${spec.forms?.[index]?.says ?? ''}`).join('\n')}`;
  }
  const synopsis = synopsisOf(spec);
  // -C DIR goes with the options, before a command's own command line (`-- <test...>`).
  const at = synopsis.indexOf(' -- ');
  const withDir = !spec.dir ? synopsis : at >= 0 ? `${synopsis.slice(0, at)} [-C DIR]${synopsis.slice(at)}` : `${synopsis} [-C DIR]`.trim();
  const forms = spec.bare ? [`rewind ${withDir}`, `rewind ${name} ${withDir}`] : [`rewind ${name}${withDir === '' ? '' : ` ${withDir}`}`];
  return `Usage: ${forms.join('\n       ')}`;
}

/**
 * `rewind <name> --help`, from the table. `facts`: what its text needs from the code outside
 * the table (the agents for `run` and `restore`, the keys for `config`).
 */
export function commandHelp(name: CommandName, facts: Partial<HelpFacts> = {}): string {
  const spec: CommandSpec = commandTable[name];
  const blocks = [usageBlock(name, spec), textOf(spec.about, facts)];
  if (Object.keys(spec.options).length > 0) blocks.push(optionLines(spec, facts).join('\n'));
  blocks.push(textOf(spec.after, facts));
  blocks.push(`Examples:\n${spec.examples.map((example) => `  ${example}`).join('\n')}`);
  return blocks.filter((block) => block !== undefined && block !== '').join('\n\n');
}
