// Preloaded into a built `rewind` (`node --import`, through NODE_OPTIONS: see withSeams in
// restoreKit.ts): acts at the engine's seams (src/shared/seams.ts) as these variables say.
// - REWIND_TEST_CRASH_AT=<seam>: SIGKILL there (`staged:<k>`, `journal`, `redo-ref`,
//   `applied`, `moving`, `moved`).
// - REWIND_TEST_CRASH_AFTER_OPS=<k>: SIGKILL right after the k-th change to the project's files.
// - REWIND_TEST_PAUSE_AT=<seam> with REWIND_TEST_PAUSE_DIR: write `paused` there, then wait
//   (60 s at most) until `go` appears; a crash asked for at the same seam comes after.
// - and the waits shortened and the clock moved as shortened.mjs says.
import fs from 'node:fs';
import path from 'node:path';
import { shortened } from './shortened.mjs';

const env = process.env;
const crashAt = env.REWIND_TEST_CRASH_AT;
const afterOps = Number(env.REWIND_TEST_CRASH_AFTER_OPS ?? '');
const pauseAt = env.REWIND_TEST_PAUSE_AT;
const pauseDir = env.REWIND_TEST_PAUSE_DIR;
let ops = 0;

function pause(seam) {
  fs.writeFileSync(path.join(pauseDir, 'paused'), seam);
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && !fs.existsSync(path.join(pauseDir, 'go')); ) Atomics.wait(tick, 0, 0, 10);
}

globalThis[Symbol.for('rewind.injected')] = {
  ...shortened(env),
  at(seam) {
    if (seam === 'op' && Number.isInteger(afterOps) && afterOps > 0 && ++ops >= afterOps) process.kill(process.pid, 'SIGKILL');
    if (pauseAt === seam && pauseDir) pause(seam);
    if (crashAt === seam) process.kill(process.pid, 'SIGKILL');
  },
};
