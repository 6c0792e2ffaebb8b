// The shadow repo's git processes keeping their heap between the objects they write
// (src/checkpoints/git/gitEnv.ts, trick 'kept-heap'), with it and without, on two paths users
// feel: a restore of 12 files at 1,000 files, beside the read-tree floor, all three in one loop
// (the order turned each round, so that none always runs first), each side its own engine and
// store on one project (the git environment is fixed when an engine opens); and a step that
// writes 2,000 new files (a scaffold, an unpacked archive), each side its own project,
// alternated round by round.
import fs from 'node:fs';
import path from 'node:path';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import { restoreCheckpoint } from '../src/checkpoints/restore/restore.js';
import { PlumbingFloor } from './floor.js';
import { benchEnv, makeRepo, time } from './lib.js';
import { edit, readTreeRestore, targets } from './restore.js';
import { trickRow, withSwitch, type TrickRow } from './tricks.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };
const trickName = 'git keeping its heap between objects (GLIBC_TUNABLES, gitEnv.ts)';
const floorKind = 'safety snapshot + read-tree --reset -u';

/** An engine opened with the trick on or off: its git environment is fixed then (checked, so that both sides never run the same). */
async function open(project: string, home: string, on: boolean): Promise<CheckpointEngine> {
  const engine = await withSwitch(on ? undefined : 'kept-heap', async () => CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } }));
  if ((engine.repo.env.GLIBC_TUNABLES !== undefined) !== on) throw new Error('the kept-heap switch did not reach the engine');
  return engine;
}

/** The restore of 12 files at `files` files, with it, without it, and the floor. */
async function restoreRow(work: string, files: number, rounds: number): Promise<TrickRow> {
  const root = path.join(work, 'kept-heap-restore');
  fs.rmSync(root, { recursive: true, force: true });
  try {
    const project = makeRepo(root, files);
    const sides: { engine: CheckpointEngine; base: number; times: number[] }[] = [];
    for (const on of [true, false]) {
      const engine = await open(project, path.join(root, `store-${on ? 'on' : 'off'}`), on);
      sides.push({ engine, base: (await engine.snapshot({ label: 'base' })).record.id, times: [] });
    }
    const floor = new PlumbingFloor(project, root, true);
    await floor.snapshot();
    const target = sides[0]?.engine.get(sides[0].base).tree ?? '';
    const floorTimes: number[] = [];
    const changed = targets(project, files);
    for (let i = 0; i < rounds; i++) {
      const order: (typeof sides[number] | 'floor')[] = [...sides, 'floor'];
      for (let r = 0; r < i % order.length; r++) order.push(order.shift() ?? 'floor');
      for (const side of order) {
        edit(changed, i);
        if (side === 'floor') floorTimes.push(await time(() => readTreeRestore(floor, project, target)));
        else side.times.push(await time(() => restoreCheckpoint(side.engine, side.base)));
      }
    }
    return trickRow(trickName, files, 'restore of 12 files, in the engine', sides[0]?.times ?? [], sides[1]?.times ?? [], floorTimes, floorKind);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** A step that writes `added` new source files (a scaffold, an unpacked archive) into a `files`-file project. */
async function newFilesRow(work: string, files: number, added: number, rounds: number): Promise<TrickRow> {
  const roots = ['on', 'off'].map((name) => path.join(work, `kept-heap-new-files-${name}`));
  try {
    const sides: { project: string; engine: CheckpointEngine; times: number[] }[] = [];
    for (const [index, root] of roots.entries()) {
      fs.rmSync(root, { recursive: true, force: true });
      const project = makeRepo(root, files);
      const engine = await open(project, path.join(root, 'store'), index === 0);
      await engine.snapshot({ label: 'base' });
      sides.push({ project, engine, times: [] });
    }
    for (let i = 0; i < rounds; i++) {
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
        const folder = path.join(side.project, `generated-${i}`);
        for (let n = 0; n < added; n++) {
          const dir = path.join(folder, `m${n % 40}`);
          fs.mkdirSync(dir, { recursive: true });
          fs.writeFileSync(path.join(dir, `g${n}.ts`), `export const generated${i}_${n} = ${JSON.stringify('x'.repeat(n % 4096))};\n`);
        }
        side.times.push(await time(() => side.engine.snapshot({ trigger: 'bench', backgroundScan: false })));
      }
    }
    return trickRow(trickName, files, `a step that writes ${added.toLocaleString('en-US')} new files, in the engine`, sides[0]?.times ?? [], sides[1]?.times ?? []);
  } finally {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchKeptHeap(work: string, quick: boolean): Promise<TrickRow[]> {
  return [await restoreRow(work, 1_000, quick ? 10 : 40), await newFilesRow(work, 1_000, 2_000, quick ? 3 : 7)];
}
