// The commands a script or an agent's hook starts a whole process for, `rewind snapshot` and
// `rewind hook`, imported up front: scripts/postbuild.mjs bundles this entry as one
// CommonJS file (read with one synchronous require, no module graph to walk) that dist/cli.js
// loads for these two commands only. Nothing of the app (Ink, React, a pty) is behind them,
// and of the engine only what takes a checkpoint (openSnapshotEngine: none of restore,
// retention or the tools, which V8 would otherwise compile at every start).
import type { CommandIO } from '../commands/shared/io.js';
import { main as hook } from '../commands/hook.js';
import { main as snapshot } from '../commands/snapshot.js';
import type { CommandName } from '../commands/shared/table.js';
import { runCommands, type CommandLoader } from './dispatch.js';

export { processIO } from '../commands/shared/io.js';

/** The commands this entry serves (dist/cli.js sends only these here). */
export const hotCommands: Partial<Record<CommandName, CommandLoader>> = {
  snapshot: () => Promise.resolve({ main: snapshot }),
  hook: () => Promise.resolve({ main: hook }),
};

/** Runs one command line of a hot command; never throws. */
export function run(args: string[], io: CommandIO): Promise<number> {
  return runCommands(args, io, hotCommands);
}
