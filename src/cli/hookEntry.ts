// `rewind hook`, the process an agent's hook starts (through rewind-hook.sh) when no app is
// running: scripts/postbuild.mjs bundles this entry as dist/cli-bundle/hook.cjs, one CommonJS
// file that dist/cli.js loads for this command only, as snapshotEntry.ts is for `rewind
// snapshot`: the agents' hook readers, the conversation's capture and the engine's part that
// takes a checkpoint, nothing of the app.
import type { CommandIO } from '../commands/shared/io.js';
import { main as hook } from '../commands/hook.js';
import type { CommandName } from '../commands/shared/table.js';
import { runCommands, type CommandLoader } from './dispatch.js';

export { processIO } from '../commands/shared/io.js';

/** The one command this entry serves. */
export const hookCommands: Partial<Record<CommandName, CommandLoader>> = {
  hook: () => Promise.resolve({ main: hook }),
};

/** Runs one command line of `rewind hook`; never throws. */
export function run(args: string[], io: CommandIO): Promise<number> {
  return runCommands(args, io, hookCommands);
}
