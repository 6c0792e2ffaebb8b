// `rewind snapshot`, the command a script starts a whole process for at each checkpoint:
// scripts/postbuild.mjs bundles this entry as dist/cli-bundle/snapshot.cjs, one CommonJS file
// (read with one synchronous require, no module graph to walk) that dist/cli.js loads for this
// command only. V8 compiles all of it at every start, so it holds nothing else: nothing of the
// app (Ink, React, a pty), nor of the hook (the agents, the conversation layer: hookEntry.ts),
// and of the engine only what takes a checkpoint (openSnapshotEngine: none of restore,
// retention or the tools).
import { main as snapshot } from '../commands/snapshot.js';
import { singleCommand } from './dispatch.js';

export { processIO } from '../commands/shared/io.js';

export const { commands, run } = singleCommand('snapshot', snapshot);
