// Command dispatch. Kept lean on purpose: `rewind hook` runs on every agent tool call, so
// nothing heavy (ink, react, conf) is imported until a subcommand needs it. (The built
// `rewind snapshot`, `rewind hook` and `rewind list` start from snapshotEntry.ts,
// hookEntry.ts and listEntry.ts instead: scripts/postbuild.mjs.)
import type { CommandIO } from '../commands/shared/io.js';
import type { CommandName } from '../commands/shared/table.js';
import { runCommands, type CommandLoader } from './dispatch.js';

// The built entry (dist/cli.js) takes it and run from here, the command line's bundle (scripts/postbuild.mjs).
export { processIO } from '../commands/shared/io.js';

/** Every command of the command table, and where its code is. */
export const commands: Record<CommandName, CommandLoader> = {
  snapshot: () => import('../commands/snapshot.js'),
  list: () => import('../commands/list.js'),
  diff: () => import('../commands/diff.js'),
  restore: () => import('../commands/restore.js'),
  revert: () => import('../commands/revert.js'),
  run: () => import('../commands/run.js'),
  redo: () => import('../commands/redo.js'),
  checkpoints: () => import('../commands/checkpoints.js'),
  prune: () => import('../commands/prune.js'),
  clean: () => import('../commands/clean.js'),
  config: () => import('../commands/config.js'),
  hook: () => import('../commands/hook.js'),
  doctor: () => import('../commands/doctor.js'),
  demo: () => import('../commands/demo.js'),
  bisect: () => import('../commands/bisect.js'),
  fork: () => import('../commands/fork.js'),
  export: () => import('../commands/export.js'),
  import: () => import('../commands/import.js'),
  show: () => import('../commands/show.js'),
};

/** Runs one command line and returns the exit code; never throws. */
export function run(args: string[], io: CommandIO): Promise<number> {
  return runCommands(args, io, commands);
}
