import fs from 'node:fs';
import path from 'node:path';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import { benchEnv, makeRepo, median, percentile, round, time } from './lib.js';
import { PlumbingFloor } from './floor.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };

export interface Stat {
  median: number;
  p90: number;
}

export interface SnapshotRow {
  files: number;
  case: 'one-file change' | 'no change' | 'first snapshot' | 'first snapshot, seeded floor';
  rewind: Stat;
  floor: Stat;
  floorKind: string;
  ratio: number;
}

function stat(values: number[]): Stat {
  return { median: round(median(values)), p90: round(percentile(values, 0.9)) };
}

function row(files: number, kind: SnapshotRow['case'], ours: number[], floor: number[], floorKind: string): SnapshotRow {
  const rewind = stat(ours);
  const base = stat(floor);
  return { files, case: kind, rewind, floor: base, floorKind, ratio: round(rewind.median / base.median, 2) };
}

function openEngine(project: string, home: string): CheckpointEngine {
  return CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } });
}

/** Snapshot timings at one repository size, each beside the plumbing floor in the same run. */
export async function benchSnapshots(work: string, files: number, runs: number, firstRuns: number): Promise<SnapshotRow[]> {
  const project = makeRepo(work, files);
  const stores = path.join(work, `stores-${files}`);
  fs.rmSync(stores, { recursive: true, force: true });
  fs.mkdirSync(stores, { recursive: true });

  const firstOurs: number[] = [];
  const firstFloor: number[] = [];
  const firstSeeded: number[] = [];
  for (let i = 0; i < firstRuns; i++) {
    const home = path.join(stores, `first-${i}`);
    firstOurs.push(await time(() => openEngine(project, home).snapshot({ trigger: 'bench' })));
    fs.rmSync(home, { recursive: true, force: true });
    const cold = new PlumbingFloor(project, stores, false);
    firstFloor.push(await time(() => cold.snapshot()));
    cold.remove();
    // The fairest floor for a first snapshot: Rewind starts from the project's index too.
    // Like the cold floor's, its repo (and here the index copy) is made before the clock starts.
    const seeded = new PlumbingFloor(project, stores, true);
    firstSeeded.push(await time(() => seeded.snapshot()));
    seeded.remove();
  }

  const engine = openEngine(project, path.join(stores, 'steady'));
  await engine.snapshot({ trigger: 'bench' });
  const floor = new PlumbingFloor(project, stores, true);
  await floor.snapshot();

  const target = path.join(project, 'd7', 's3', `f${7 + 50 * 3}.txt`);
  const changeOurs: number[] = [];
  const changeFloor: number[] = [];
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? ['ours', 'floor'] : ['floor', 'ours'];
    for (const who of order) {
      fs.appendFileSync(target, `${who} ${i}\n`);
      if (who === 'ours') changeOurs.push(await time(() => engine.snapshot({ trigger: 'bench' })));
      else changeFloor.push(await time(() => floor.snapshot()));
    }
  }
  const sameOurs: number[] = [];
  const sameFloor: number[] = [];
  for (let i = 0; i < runs; i++) {
    sameOurs.push(await time(() => engine.snapshot({ trigger: 'bench' })));
    sameFloor.push(await time(() => floor.snapshot()));
  }
  floor.remove();
  fs.rmSync(stores, { recursive: true, force: true });
  return [
    row(files, 'one-file change', changeOurs, changeFloor, 'add -A, write-tree, commit-tree, update-ref (4 spawns, persistent index)'),
    row(files, 'no change', sameOurs, sameFloor, 'add -A, write-tree; no commit-tree or update-ref for an unchanged tree (2 spawns)'),
    row(files, 'first snapshot', firstOurs, firstFloor, 'cold floor: same four spawns, empty index'),
    row(files, 'first snapshot, seeded floor', firstOurs, firstSeeded, "seeded floor: the project's index copied in, then the same four spawns"),
  ];
}
