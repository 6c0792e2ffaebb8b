// Command dispatch. Kept lean on purpose: `rewind hook` runs on every agent tool call, so
// nothing heavy (ink, react, conf) is imported until a subcommand needs it.
import { readFileSync } from 'node:fs';
import { BugError, isUserError } from '../shared/errors.js';
import { writeLine, type CommandIO, type CommandMain } from '../commands/io.js';

// The built entry (dist/cli.js) takes both from here, the command line's bundle (scripts/postbuild.mjs).
export { processIO } from '../commands/io.js';

const commands: Record<string, () => Promise<{ main: CommandMain }>> = {
  snapshot: () => import('../commands/snapshot.js'),
  list: () => import('../commands/list.js'),
  diff: () => import('../commands/diff.js'),
  restore: () => import('../commands/restore.js'),
  run: () => import('../commands/run.js'),
  redo: () => import('../commands/redo.js'),
  checkpoints: () => import('../commands/checkpoints.js'),
  prune: () => import('../commands/prune.js'),
  clean: () => import('../commands/clean.js'),
  config: () => import('../commands/config.js'),
  hook: () => import('../commands/hook.js'),
  demo: () => import('../commands/demo.js'),
  bisect: () => import('../commands/bisect.js'),
  fork: () => import('../commands/fork.js'),
  show: () => import('../commands/show.js'),
};

export const usage = `rewind: the undo button for AI coding agents

Usage:
  rewind [--agent NAME] -- <command...>     run an agent in the app (\`rewind -- claude\`)
  rewind demo [DIR]                         try it: the app on a demo agent, in a sandbox project
  rewind snapshot [--label L] [--json]      take a checkpoint of the project now
  rewind list [--json]                      checkpoints, oldest first
  rewind diff <id> [PATH...] [--name-status]  what restoring <id> would change (now -> <id>)
  rewind restore <id> [--only PATH]... [--dry-run] [--yes] [--json]
                                            put the files back as they were at <id>
  rewind redo [--dry-run] [--yes] [--json]  undo the last restore (shows which, asks)
  rewind checkpoints [--json]               disk usage, retention, every project's store
  rewind prune [--dry-run]                  apply retention now, say what it freed
  rewind clean --orphans|--project|--all [--yes]  delete checkpoint stores
  rewind show <id> [PATH...]                what that one step changed (<id> -> the next checkpoint)
  rewind bisect [--good ID] [--bad ID] [--scan] [--setup CMD] -- <test...>
                                            the first checkpoint where a test fails (your files untouched)
  rewind fork <id> [--dir DIR]              a checkpoint's files in a new folder
  rewind config [path|get KEY|set KEY VALUE|validate]
  rewind hook <agent> <event>               an agent's hook entry (JSON payload on stdin)

Every command takes -C DIR (default: the current directory) and --help.
Environment: REWIND_HOME (checkpoint stores), REWIND_CONFIG_DIR (config.json folder).

Examples:
  rewind demo                  # try it on a pretend agent, in a sandbox
  rewind -- claude             # your agent, with a checkpoint before every step
  rewind list && rewind restore 12`;

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

/** Runs one command line and returns the exit code; never throws. */
export async function run(args: string[], io: CommandIO): Promise<number> {
  const argv = withDirAfterCommand(args);
  const [name, ...rest] = argv;
  // NO_COLOR (no-color.org): chalk, under Ink, reads FORCE_COLOR once, when it is first imported.
  if (io.env.NO_COLOR && io.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = '0';
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      writeLine(io.stdout, usage);
      return 0;
    }
    if (name === '--version' || name === '-v') {
      writeLine(io.stdout, version());
      return 0;
    }
    if (name === '--' || name === '--agent' || name.startsWith('--agent=')) {
      const { main } = await import('../commands/run.js');
      return await main(argv, io);
    }
    const load = commands[name];
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
