// "Fewer tricks, each paying its way": each speed-up that hand-writes a git format or trains a
// cache at build time, measured on the path users feel with it and without it.
// - Seeding the first snapshot's index from the project's (seedIndex.ts + indexFile.ts): the
//   first snapshot (a session's start, or the first `rewind snapshot`), in the engine, beside
//   the seeded floor (the fairest: it starts from the project's index too). Turned off here by
//   what the bench injects (src/shared/seams.ts: `off`, trick 'seed-index'); the product reads
//   no switch. (Writing the first commit and ref by hand went: under 20% in two runs. So did
//   the V8 code cache of the app's bundle, trained at build time: 8.5% and 12.6% of the
//   session's start, 11.6% and 12.6% of a short session's CPU, in the last two runs.)
// - `rewind snapshot` and `rewind hook` in a CommonJS file each: bench/hotBundle.ts.
// - The shadow's git keeping its heap between the objects it writes: bench/keptHeap.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import type { Injected, Trick } from '../src/shared/seams.js';
import { PlumbingFloor } from './floor.js';
import { benchEnv, makeRepo, median, percentile, round, time } from './lib.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };
const injectedKey = Symbol.for('rewind.injected');

interface Stat {
  median: number;
  p90: number;
}

function stat(values: number[]): Stat {
  return { median: round(median(values)), p90: round(percentile(values, 0.9)) };
}

export interface TrickRow {
  trick: string;
  files?: number;
  path: string;
  with: Stat;
  without: Stat;
  /** (without - with) / without, medians, in %. */
  gainPercent: number;
  /** The fairest floor of that path, when there is one, and the ratios to it. */
  floor?: Stat;
  floorKind?: string;
  ratioWith?: number;
  ratioWithout?: number;
  /** The issue's bar: at least 20% on a path users feel. */
  pays: boolean;
  unit?: string;
}

export function trickRow(trick: string, files: number | undefined, where: string, on: number[], off: number[], floor?: number[], floorKind?: string, unit = 'ms'): TrickRow {
  const a = stat(on);
  const b = stat(off);
  const gainPercent = round(((b.median - a.median) / b.median) * 100, 1);
  const f = floor ? stat(floor) : undefined;
  return {
    trick,
    ...(files !== undefined ? { files } : {}),
    path: where,
    with: a,
    without: b,
    gainPercent,
    ...(f ? { floor: f, floorKind, ratioWith: round(a.median / f.median, 2), ratioWithout: round(b.median / f.median, 2) } : {}),
    pays: gainPercent >= 20,
    ...(unit !== 'ms' ? { unit } : {}),
  };
}

/** Runs `work` with the speed-up `trick` turned off (src/shared/seams.ts), or with all on. */
export async function withSwitch<T>(trick: Trick | undefined, work: () => Promise<T>): Promise<T> {
  const global = globalThis as { [injectedKey]?: Injected };
  if (trick) global[injectedKey] = { off: new Set([trick]) };
  try {
    return await work();
  } finally {
    delete global[injectedKey];
  }
}

/** The first snapshot in the engine with each switch, beside the seeded floor, at one size. */
export async function benchFirstSnapshotTricks(work: string, files: number, runs: number): Promise<TrickRow[]> {
  const project = makeRepo(work, files);
  const stores = path.join(work, `tricks-${files}`);
  fs.rmSync(stores, { recursive: true, force: true });
  fs.mkdirSync(stores, { recursive: true });
  const variants = ['all', 'seed-index'] as const;
  const times = new Map<string, number[]>([...variants, 'floor'].map((name) => [name, []]));
  try {
    for (let i = 0; i < runs; i++) {
      // Rotated, so that no variant always runs just after another.
      const order = [...variants, 'floor' as const];
      for (let r = 0; r < i % order.length; r++) order.push(order.shift() ?? 'all');
      for (const variant of order) {
        const home = path.join(stores, `${variant}-${i}`);
        if (variant === 'floor') {
          const floor = new PlumbingFloor(project, stores, true);
          times.get('floor')?.push(await time(() => floor.snapshot()));
          floor.remove();
          continue;
        }
        const engine = CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } });
        times.get(variant)?.push(await withSwitch(variant === 'all' ? undefined : variant, () => time(() => engine.snapshot({ trigger: 'bench' }))));
        fs.rmSync(home, { recursive: true, force: true });
      }
    }
  } finally {
    fs.rmSync(stores, { recursive: true, force: true });
  }
  const all = times.get('all') ?? [];
  const floor = times.get('floor') ?? [];
  const floorKind = "seeded floor: the project's index copied in, then add -A, write-tree, commit-tree, update-ref";
  return [
    trickRow('project-index seeding (seedIndex.ts, indexFile.ts)', files, 'first snapshot, in the engine', all, times.get('seed-index') ?? [], floor, floorKind),
  ];
}

/** A copy of dist/ in bench/.work/<name>/, where Node finds the same packages (under the repo): its cli.js. */
export function copyOfDist(name: string): string {
  const root = fileURLToPath(new URL(`./.work/${name}/`, import.meta.url));
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const repo = fileURLToPath(new URL('../', import.meta.url));
  fs.cpSync(path.join(repo, 'dist'), path.join(root, 'dist'), { recursive: true });
  for (const file of ['package.json', 'config.schema.json']) if (fs.existsSync(path.join(repo, file))) fs.copyFileSync(path.join(repo, file), path.join(root, file));
  return path.join(root, 'dist', 'cli.js');
}


export interface TrickVerdict {
  trick: string;
  /** The gain on each path measured, in %: "first snapshot, in the engine, 10000 files": 84.2. */
  gains: Record<string, number>;
  verdict: 'pays on every path measured' | 'pays on some paths only' | 'does not pay';
}

/** Which tricks pay, and by how much, from the rows. */
export function tricksVerdicts(rows: readonly TrickRow[]): TrickVerdict[] {
  const byTrick = new Map<string, TrickRow[]>();
  for (const row of rows) byTrick.set(row.trick, [...(byTrick.get(row.trick) ?? []), row]);
  return [...byTrick].map(([trick, mine]) => {
    const paying = mine.filter((row) => row.pays).length;
    return {
      trick,
      gains: Object.fromEntries(mine.map((row) => [`${row.path}${row.files ? `, ${row.files} files` : ''}`, row.gainPercent])),
      verdict: paying === mine.length ? 'pays on every path measured' : paying > 0 ? 'pays on some paths only' : 'does not pay',
    };
  });
}

export const tricksNote = `${os.cpus().length} cores shared with other work: gains under ~10% are within noise.`;
