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
import type { Injected, Trick } from '../src/shared/seams.js';
import { PlumbingFloor } from './floor.js';
import { benchEnv, makeRepo, time } from './lib.js';
import { readTreeRestore } from './restore.js';
import { trickRow, type TrickRow } from './tricks.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };
const injectedKey = Symbol.for('rewind.injected');
const keptHeap = 'git keeping its heap between objects (GLIBC_TUNABLES, gitEnv.ts)';
const floorKind = 'safety snapshot + read-tree --reset -u';

/** Opens with the speed-ups `off` turned off (src/shared/seams.ts). */
function switched<T>(off: readonly Trick[], work: () => T): T {
  const global = globalThis as { [injectedKey]?: Injected };
  if (off.length > 0) global[injectedKey] = { off: new Set(off) };
  try {
    return work();
  } finally {
    delete global[injectedKey];
  }
}

function open(project: string, home: string, off: readonly Trick[]): CheckpointEngine {
  return switched(off, () => CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } }));
}

/** The restore of 12 files at `files` files, with it, without it, and the floor. */
async function restoreRow(work: string, files: number, rounds: number): Promise<TrickRow> {
  const root = path.join(work, 'restore-tricks');
  fs.rmSync(root, { recursive: true, force: true });
  const project = makeRepo(root, files);
  const variants: Record<string, Trick[]> = { on: [], off: ['kept-heap'] };
  const sides = Object.entries(variants).map(([name, off]) => ({ name, engine: open(project, path.join(root, `store-${name}`), off), base: 0, times: [] as number[] }));
  for (const side of sides) side.base = (await side.engine.snapshot({ label: 'base' })).record.id;
  const floor = new PlumbingFloor(project, root, true);
  await floor.snapshot();
  const target = sides[0]?.engine.get(sides[0].base).tree ?? '';
  const floorTimes: number[] = [];
  const step = Math.floor(files / 12);
  const edit = (i: number) => {
    for (let k = 0; k < 12; k++) {
      const n = k * step + 3;
      fs.appendFileSync(path.join(project, `d${n % 50}`, `s${Math.floor(n / 50) % 20}`, `f${n}.txt`), `edit ${i}\n`);
    }
  };
  for (let i = 0; i < rounds; i++) {
    const order: (typeof sides[number] | 'floor')[] = [...sides, 'floor'];
    for (let r = 0; r < i % order.length; r++) order.push(order.shift() ?? 'floor');
    for (const side of order) {
      edit(i);
      if (side === 'floor') floorTimes.push(await time(() => readTreeRestore(floor, project, target)));
      else side.times.push(await time(() => restoreCheckpoint(side.engine, side.base)));
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  const times = (name: string) => sides.find((side) => side.name === name)?.times ?? [];
  return trickRow(keptHeap, files, 'restore of 12 files, in the engine', times('on'), times('off'), floorTimes, floorKind);
}

/** A step that writes `added` new source files (a scaffold, an unpacked archive) into a `files`-file project. */
async function newFilesRow(work: string, files: number, added: number, rounds: number): Promise<TrickRow> {
  const sides = [true, false].map((on) => {
    const root = path.join(work, `new-files-${on ? 'on' : 'off'}`);
    fs.rmSync(root, { recursive: true, force: true });
    const project = makeRepo(root, files);
    const off: Trick[] = on ? [] : ['kept-heap'];
    return { root, project, engine: open(project, path.join(root, 'store'), off), times: [] as number[] };
  });
  for (const side of sides) await side.engine.snapshot({ label: 'base' });
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
  for (const side of sides) fs.rmSync(side.root, { recursive: true, force: true });
  return trickRow(keptHeap, files, `a step that writes ${added.toLocaleString('en-US')} new files, in the engine`, sides[0]?.times ?? [], sides[1]?.times ?? []);
}

export async function benchKeptHeap(work: string, quick: boolean): Promise<TrickRow[]> {
  return [await restoreRow(work, 1_000, quick ? 10 : 40), await newFilesRow(work, 1_000, 2_000, quick ? 3 : 7)];
}
