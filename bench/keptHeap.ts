// The shadow repo's git processes keeping their heap between the objects they write
// (src/checkpoints/git/gitEnv.ts, trick 'kept-heap'), with it and without, each on a path
// users feel: a restore of 12 files, and a step that writes many new files. Two projects,
// one engine each (the git environment is fixed when an engine opens), alternated round by
// round so that neither always runs first.
import fs from 'node:fs';
import path from 'node:path';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import { restoreCheckpoint } from '../src/checkpoints/restore/restore.js';
import type { Injected } from '../src/shared/seams.js';
import { benchEnv, makeRepo, time } from './lib.js';
import { trickRow, type TrickRow } from './tricks.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };
const injectedKey = Symbol.for('rewind.injected');
const trick = 'git keeping its heap between objects (GLIBC_TUNABLES, gitEnv.ts)';

interface Side {
  project: string;
  engine: CheckpointEngine;
  times: number[];
}

/** An engine on its own copy of a `files`-file project, opened with the trick on or off. */
function open(work: string, name: string, files: number, on: boolean): Side {
  const root = path.join(work, `kept-heap-${name}`);
  fs.rmSync(root, { recursive: true, force: true });
  const project = makeRepo(root, files);
  const home = path.join(root, 'store');
  const global = globalThis as { [injectedKey]?: Injected };
  if (!on) global[injectedKey] = { off: new Set(['kept-heap']) };
  try {
    return { project, engine: CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } }), times: [] };
  } finally {
    delete global[injectedKey];
  }
}

async function alternate(sides: readonly [Side, Side], rounds: number, round: (side: Side, i: number) => Promise<number>): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    for (const side of i % 2 === 0 ? sides : [sides[1], sides[0]]) side.times.push(await round(side, i));
  }
}

/** Restoring 12 changed files at `files` files (the redo point included), as bench/restore.ts does. */
async function restoreRow(work: string, files: number, rounds: number): Promise<TrickRow> {
  const sides = [open(work, 'restore-on', files, true), open(work, 'restore-off', files, false)] as const;
  const bases = new Map(await Promise.all(sides.map(async (side) => [side, (await side.engine.snapshot({ label: 'base' })).record.id] as const)));
  const step = Math.floor(files / 12);
  await alternate(sides, rounds, (side, i) => {
    for (let k = 0; k < 12; k++) {
      const n = k * step + 3;
      fs.appendFileSync(path.join(side.project, `d${n % 50}`, `s${Math.floor(n / 50) % 20}`, `f${n}.txt`), `edit ${i}\n`);
    }
    return time(() => restoreCheckpoint(side.engine, bases.get(side) ?? 0));
  });
  return trickRow(trick, files, 'restore of 12 files, in the engine', sides[0].times, sides[1].times);
}

/** A step that writes `added` new source files (a scaffold, an unpacked archive) into a `files`-file project. */
async function newFilesRow(work: string, files: number, added: number, rounds: number): Promise<TrickRow> {
  const sides = [open(work, 'new-on', files, true), open(work, 'new-off', files, false)] as const;
  for (const side of sides) await side.engine.snapshot({ label: 'base' });
  await alternate(sides, rounds, (side, i) => {
    const folder = path.join(side.project, `generated-${i}`);
    for (let n = 0; n < added; n++) {
      const dir = path.join(folder, `m${n % 40}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `g${n}.ts`), `export const generated${i}_${n} = ${JSON.stringify('x'.repeat(n % 4096))};\n`);
    }
    return time(() => side.engine.snapshot({ trigger: 'bench' }));
  });
  return trickRow(trick, files, `a step that writes ${added.toLocaleString('en-US')} new files, in the engine`, sides[0].times, sides[1].times);
}

export async function benchKeptHeap(work: string, quick: boolean): Promise<TrickRow[]> {
  try {
    return [await restoreRow(work, 1_000, quick ? 10 : 40), await newFilesRow(work, 1_000, 2_000, quick ? 3 : 7)];
  } finally {
    for (const name of ['restore-on', 'restore-off', 'new-on', 'new-off']) fs.rmSync(path.join(work, `kept-heap-${name}`), { recursive: true, force: true });
  }
}
