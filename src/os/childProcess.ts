// node:child_process, loaded when the first process is started rather than when the engine's
// modules are: with what it loads (net, streams) it is ~5-10 ms of a Node start, which a
// command that starts no process (`rewind list` on steps it counted before) need not pay.
import type * as ChildProcess from 'node:child_process';
import { createRequire } from 'node:module';

let loaded: typeof ChildProcess | undefined;

/** node:child_process (loaded on the first call). */
export function childProcess(): typeof ChildProcess {
  loaded ??= createRequire(import.meta.url)('node:child_process') as typeof ChildProcess;
  return loaded;
}
