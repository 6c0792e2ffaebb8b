// Command dispatch, shared by the whole command line (main.ts) and the entries bundled alone
// (snapshotEntry.ts, hookEntry.ts, listEntry.ts): what a command line means, its help, and
// how errors are reported.
import { readFileSync } from 'node:fs';
import { BugError, isUserError } from '../shared/errors.js';
import { usage } from '../commands/shared/help.js';
import { writeLine, type CommandIO, type CommandMain } from '../commands/shared/io.js';
import type { CommandName } from '../commands/shared/table.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** `-C DIR` before the command (`rewind -C ~/api -- claude`) goes to the command, as after it. */
function withDirAfterCommand(argv: string[]): string[] {
  const [flag, dir, name, ...rest] = argv;
  if (flag !== '-C' || dir === undefined || name === undefined) return argv;
  // The app's options all come before its `--`.
  if (name === '--' || name.startsWith('--agent')) return ['run', flag, dir, name, ...rest];
  return [name, flag, dir, ...rest];
}

/** Loads a command's module (its `main`). */
export type CommandLoader = () => Promise<{ main: CommandMain }>;

/** What an entry bundled for one command alone (snapshotEntry.ts, hookEntry.ts, listEntry.ts) serves: that command's table, and its command lines. */
export interface SingleCommand {
  commands: Partial<Record<CommandName, CommandLoader>>;
  /** Runs one command line; never throws. */
  run(args: string[], io: CommandIO): Promise<number>;
}

export function singleCommand(name: CommandName, main: CommandMain): SingleCommand {
  const commands = { [name]: () => Promise.resolve({ main }) };
  return { commands, run: (args, io) => runCommands(args, io, commands) };
}

/**
 * Runs one command line with these commands and returns the exit code; never throws. The
 * app (`rewind -- claude`) is the `run` command's.
 */
export async function runCommands(args: string[], io: CommandIO, commands: Readonly<Partial<Record<CommandName, CommandLoader>>>): Promise<number> {
  const argv = withDirAfterCommand(args);
  const [name, ...rest] = argv;
  // NO_COLOR (no-color.org): chalk, under Ink, reads FORCE_COLOR once, when it is first imported.
  if (io.env.NO_COLOR && io.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = '0';
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      writeLine(io.stdout, usage());
      return 0;
    }
    if (name === '--version' || name === '-v') {
      writeLine(io.stdout, version());
      return 0;
    }
    if (name === '--' || name === '--agent' || name.startsWith('--agent=')) {
      const app = commands.run;
      if (!app) throw new BugError('the app is not in this command table');
      const { main } = await app();
      return await main(argv, io);
    }
    // Own names only: `constructor`, `toString` are no commands.
    const load = Object.hasOwn(commands, name) ? commands[name as CommandName] : undefined;
    if (!load) {
      writeLine(io.stderr, `rewind: unknown command '${name}' (see \`rewind --help\`)`);
      return 2;
    }
    const { main } = await load();
    return await main(rest, io);
  } catch (error) {
    return reportError(error, io);
  }
}

function reportError(error: unknown, io: CommandIO): number {
  if (isUserError(error)) {
    writeLine(io.stderr, `rewind: ${error.message}`);
    return error.exitCode;
  }
  const bug = error instanceof BugError || error instanceof Error ? error : new BugError(String(error));
  writeLine(io.stderr, `rewind: internal error: ${bug.message}`);
  writeLine(io.stderr, bug.stack ?? '');
  writeLine(io.stderr, 'This is a bug in rewind; please report it with the lines above.');
  return 70;
}
