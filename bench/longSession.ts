// A long session with retention on (issue 17): `snapshots` checkpoints of small changes in
// a project of `files` files, the clock moving 10 minutes a step (2,000 steps: about two
// weeks), retention applied every 100 steps as an open would (7 days, so it drops from
// the middle on). Snapshot time must not grow with the history's length: the slope says.
import fs from 'node:fs';
import path from 'node:path';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import { diskUsage } from '../src/checkpoints/store/diskUsage.js';
import { benchEnv, makeRepo, median, round, time } from './lib.js';

export interface LongSessionRow {
  files: number;
  snapshots: number;
  retentionDays: number;
  /** Median snapshot ms over the first and the last 100 steps. */
  snapshotMs: { first: number; last: number };
  /** Least-squares slope of snapshot ms against step number, per 1,000 steps. */
  slopeMsPer1000: number;
  /** Store bytes on disk after the first 100 steps, at most during the run, at the end. */
  storeBytes: { early: number; most: number; end: number };
  /** CheckpointEngine listed at the end (retention keeps about 7 days of them). */
  checkpointsAtEnd: number;
  /** Each retention pass that dropped something: median and slowest ms. */
  pruneMs: { median: number; max: number; passes: number };
}

const stepMs = 10 * 60 * 1000;
const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 20, checkpointWarnGb: 2 };

function slope(values: readonly number[]): number {
  const n = values.length;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((sum, value) => sum + value, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((value, x) => {
    num += (x - meanX) * (value - meanY);
    den += (x - meanX) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

export async function benchLongSession(work: string, files: number, snapshots: number): Promise<LongSessionRow> {
  const project = makeRepo(work, files);
  const home = fs.mkdtempSync(path.join(work, 'long-home-'));
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const engine = CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home }, now: () => clock });
  const checkpoints = engine;
  const policy = { days: 7, maxGb: 5 };
  const snapshotMs: number[] = [];
  const pruneMs: number[] = [];
  let early = 0;
  let most = 0;
  for (let step = 0; step < snapshots; step++) {
    clock += stepMs;
    // A small change: one file edited, now and then one added.
    fs.appendFileSync(path.join(project, `d${step % 50}`, 's0', `f${step % 50}.txt`), `// step ${step}\n`);
    if (step % 10 === 0) fs.writeFileSync(path.join(project, `new-${step}.txt`), `added at step ${step}\n`);
    snapshotMs.push(await time(() => checkpoints.snapshot({ label: `step ${step}`, backgroundScan: false })));
    if ((step + 1) % 100 === 0) {
      if (await checkpoints.retentionDue(policy)) {
        const started = performance.now();
        const result = await checkpoints.prune(policy);
        if (result.byAge.length + result.bySize.length > 0) pruneMs.push(performance.now() - started);
      }
      const bytes = await diskUsage(engine.store.root);
      if (step + 1 === 100) early = bytes;
      most = Math.max(most, bytes);
    }
  }
  const end = await diskUsage(engine.store.root);
  const checkpointsAtEnd = checkpoints.list().length;
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
  return {
    files,
    snapshots,
    retentionDays: policy.days,
    snapshotMs: { first: round(median(snapshotMs.slice(0, 100))), last: round(median(snapshotMs.slice(-100))) },
    slopeMsPer1000: round(slope(snapshotMs) * 1000, 2),
    storeBytes: { early, most, end },
    checkpointsAtEnd,
    pruneMs: { median: round(pruneMs.length > 0 ? median(pruneMs) : 0), max: round(Math.max(0, ...pruneMs)), passes: pruneMs.length },
  };
}
