// `rewind list` alone (a user or an orchestrator looking at the steps, at any project size):
// scripts/postbuild.mjs bundles this entry as dist/cli-bundle/list.cjs, one small CommonJS
// file that dist/cli.js loads for `rewind list`. It reads the checkpoint log and nothing of
// the engine: when the store needs the engine's work first, or `--now` asks for the files,
// commands/list/listEngine.ts is dist/cli-bundle/listEngine.cjs, a file of its own required
// then (the build makes it so, and stops if the engine lands in this bundle).
import type { CommandIO } from '../commands/shared/io.js';
import { main as list } from '../commands/list.js';
import type { CommandName } from '../commands/shared/table.js';
import { runCommands, type CommandLoader } from './dispatch.js';

export { processIO } from '../commands/shared/io.js';

/** The one command this entry serves. */
export const listCommands: Partial<Record<CommandName, CommandLoader>> = {
  list: () => Promise.resolve({ main: list }),
};

/** Runs one command line of `rewind list`; never throws. */
export function run(args: string[], io: CommandIO): Promise<number> {
  return runCommands(args, io, listCommands);
}
