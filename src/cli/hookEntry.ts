// `rewind hook`, the process an agent's hook starts (through rewind-hook.sh) when no app is
// running: scripts/postbuild.mjs bundles this entry as dist/cli-bundle/hook.cjs, one CommonJS
// file that dist/cli.js loads for this command only, as snapshotEntry.ts is for `rewind
// snapshot`: the agents' hook readers, the conversation's capture and the engine's part that
// takes a checkpoint, nothing of the app.
import { main as hook } from '../commands/hook.js';
import { singleCommand } from './dispatch.js';

export { processIO } from '../commands/shared/io.js';

export const { commands, run } = singleCommand('hook', hook);
