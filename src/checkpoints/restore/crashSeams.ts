import fs from 'node:fs';
import path from 'node:path';

/**
 * Test seams for crash safety: the process kills itself there (SIGKILL, no cleanup).
 * REWIND_TEST_CRASH_AT=<seam>: `staged:<k>` (after the k-th staged copy), `journal` (just
 * after the journal is written), `redo-ref` (just after the redo point is pushed), `applied`
 * (after the last change to the files, before what raced it is checked), `moving` and
 * `moved` (just before and after its redo point moves to the checkpoint of writes that raced it).
 * REWIND_TEST_CRASH_AFTER_OPS=<k>: right after the k-th change to the project's files.
 */
export function crashAt(seam: string, count?: number): void {
  const wanted = process.env.REWIND_TEST_CRASH_AT;
  if (wanted && wanted === (count === undefined ? seam : `${seam}:${count}`)) process.kill(process.pid, 'SIGKILL');
}

/** A counter of changes to the project's files that kills at REWIND_TEST_CRASH_AFTER_OPS (see above). */
export function crashAfterOps(): () => void {
  const limit = Number(process.env.REWIND_TEST_CRASH_AFTER_OPS ?? '');
  if (!Number.isInteger(limit) || limit <= 0) return () => undefined;
  let done = 0;
  return () => {
    if (++done >= limit) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * Test seam for what races a restore: with REWIND_TEST_PAUSE_AT=<seam>, the process writes
 * `paused` into REWIND_TEST_PAUSE_DIR there and waits (at most 60 s) until `go` appears.
 */
export function pauseAt(seam: string): void {
  const dir = process.env.REWIND_TEST_PAUSE_DIR;
  if (process.env.REWIND_TEST_PAUSE_AT !== seam || !dir) return;
  fs.writeFileSync(path.join(dir, 'paused'), seam);
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && !fs.existsSync(path.join(dir, 'go')); ) Atomics.wait(tick, 0, 0, 10);
}
