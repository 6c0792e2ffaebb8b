// `rewind list` alone (a user or an orchestrator looking at the steps, at any project size):
// scripts/postbuild.mjs bundles this entry as dist/cli-bundle/list.cjs, one small CommonJS
// file that dist/cli.js loads for `rewind list`. It reads the checkpoint log and nothing of
// the engine: when the store needs the engine's work first, or `--now` asks for the files,
// commands/list/listEngine.ts is dist/cli-bundle/listEngine.cjs, a file of its own required
// then (the build makes it so, and stops if the engine lands in this bundle).
import { main as list } from '../commands/list.js';
import { singleCommand } from './dispatch.js';

export { processIO } from '../commands/shared/io.js';

export const { commands, run } = singleCommand('list', list);
