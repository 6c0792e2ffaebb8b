/**
 * Test seams for crash safety: with REWIND_TEST_CRASH_AT=<seam> (or `staged:<k>`, after the
 * k-th staged copy) the process kills itself there (SIGKILL, no cleanup). Seams: `staged:k`,
 * `journal` (just after the journal is written), `redo-ref` (just after the redo point is
 * pushed). REWIND_TEST_CRASH_AFTER_OPS (apply.ts) counts changes to the project's files.
 */
export function crashAt(seam: string, count?: number): void {
  const wanted = process.env.REWIND_TEST_CRASH_AT;
  if (!wanted) return;
  if (wanted === (count === undefined ? seam : `${seam}:${count}`)) process.kill(process.pid, 'SIGKILL');
}
