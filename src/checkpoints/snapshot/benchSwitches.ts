/**
 * Bench-only switches, read here and nowhere else: each turns one of the engine's
 * speed-ups off so that `npm run bench -- --only=tricks` can measure what it buys
 * (README "Performance"). Not settings: unset (always, outside the bench) nothing changes.
 * - REWIND_BENCH_NO_SEED=1: the first snapshot starts from an empty shadow index instead of
 *   a copy of the project's (seedIndex.ts; indexFile.ts parses that copy).
 * - REWIND_BENCH_NO_LOOSE_COMMIT=1: the first snapshot's commit and ref are written by
 *   `git commit-tree` and `update-ref` in its script instead of by looseCommit.ts.
 */
export type BenchSwitch = 'REWIND_BENCH_NO_SEED' | 'REWIND_BENCH_NO_LOOSE_COMMIT';

export function benchSwitchedOff(name: BenchSwitch): boolean {
  return process.env[name] === '1';
}
