// The property tests (restore, ignore rules, the app's checkpoints staged from changed paths,
// alone and with restores among them, revert) with many more runs than `npm test` gives them
// (20 to 60 runs; one seed each for the two seeded ones): the long property runs belong here, not in CI's time budget.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface PropertyRow {
  test: string;
  runs: number;
  ok: boolean;
  ms: number;
}

const tests = ['test/restore/property.test.ts', 'test/restore/ignoreProperty.test.ts', 'test/runtime/changedPathsProperty.test.ts', 'test/runtime/restoreMixProperty.test.ts', 'test/tools/revertProperty.test.ts'];

/** Runs each property test file with `runs` runs (REWIND_PROPERTY_RUNS); a failure is reported, not thrown. */
export function benchProperties(runs: number): PropertyRow[] {
  const root = fileURLToPath(new URL('../', import.meta.url));
  return tests.map((test) => {
    const started = performance.now();
    const result = spawnSync('npx', ['vitest', 'run', test], { cwd: root, env: { ...process.env, REWIND_PROPERTY_RUNS: String(runs) }, stdio: ['ignore', 'inherit', 'inherit'] });
    return { test, runs, ok: result.status === 0, ms: Math.round(performance.now() - started) };
  });
}
