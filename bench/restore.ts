import fs from 'node:fs';
import path from 'node:path';
import { CheckpointEngine } from '../src/checkpoints/checkpointEngine.js';
import { restoreCheckpoint } from '../src/checkpoints/restore/restore.js';
import { benchEnv, gitAsync, makeRepo, median, percentile, round, time } from './lib.js';
import { PlumbingFloor } from './floor.js';

const settings = { checkpointMaxFileMb: 20, checkpointExclude: [], gcEvery: 1_000_000, checkpointWarnGb: 2 };
const changedFiles = 12;

export interface RestoreRow {
  files: number;
  rewind: { median: number; p90: number };
  readTreeFloor: { median: number; p90: number };
  catFileFloor: { median: number; p90: number };
  fastestFloor: string;
  ratio: number;
}

export function targets(project: string, files: number): string[] {
  const step = Math.floor(files / changedFiles);
  return Array.from({ length: changedFiles }, (_, k) => {
    const i = k * step + 3;
    return path.join(project, `d${i % 50}`, `s${Math.floor(i / 50) % 20}`, `f${i}.txt`);
  });
}

export function edit(paths: readonly string[], round: number): void {
  for (const file of paths) fs.appendFileSync(file, `edit ${round}\n`);
}

/** Floor A: safety snapshot, then `read-tree --reset -u <target>` (git rewrites what differs). */
export async function readTreeRestore(floor: PlumbingFloor, project: string, target: string): Promise<void> {
  await floor.snapshot();
  await gitAsync(project, [`--git-dir=${floor.gitDir}`, `--work-tree=${project}`, 'read-tree', '--reset', '-u', target]);
}

/** Floor B: safety snapshot, diff-tree, one cat-file --batch for the blobs, temp files renamed in. */
async function catFileRestore(floor: PlumbingFloor, project: string, target: string, staging: string): Promise<void> {
  await floor.snapshot();
  const g = (args: string[]) => gitAsync(project, [`--git-dir=${floor.gitDir}`, `--work-tree=${project}`, ...args]);
  const current = await g(['write-tree']);
  const raw = await g(['diff-tree', '-r', '--no-renames', current, target]);
  const changes = raw
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [meta = '', file = ''] = line.split('\t');
      return { oid: meta.split(' ')[3] ?? '', file };
    });
  const { spawn } = await import('node:child_process');
  const blobs = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${floor.gitDir}`, 'cat-file', '--batch'], { cwd: project, env: benchEnv });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error('cat-file failed'))));
    child.stdin.end(changes.map((change) => `${change.oid}\n`).join(''));
  });
  fs.mkdirSync(staging, { recursive: true });
  let at = 0;
  changes.forEach((change, index) => {
    const newline = blobs.indexOf(0x0a, at);
    const size = Number(blobs.subarray(at, newline).toString().split(' ')[2]);
    const temp = path.join(staging, String(index));
    fs.writeFileSync(temp, blobs.subarray(newline + 1, newline + 1 + size));
    at = newline + 1 + size + 1;
    fs.renameSync(temp, path.join(project, change.file));
  });
}

/** Restoring 12 changed files (the safety snapshot included), beside both plumbing floors. */
export async function benchRestore(work: string, files: number, runs: number): Promise<RestoreRow> {
  const project = makeRepo(work, files);
  const stores = path.join(work, `restore-stores-${files}`);
  fs.rmSync(stores, { recursive: true, force: true });
  fs.mkdirSync(stores, { recursive: true });
  const home = path.join(stores, 'rewind');
  const engine = CheckpointEngine.open({ cwd: project, settings, home, env: { ...benchEnv, REWIND_HOME: home } });
  const base = (await engine.snapshot({ label: 'base' })).record;
  const floorA = new PlumbingFloor(project, stores, true);
  const floorB = new PlumbingFloor(project, stores, true);
  await floorA.snapshot();
  await floorB.snapshot();
  const changed = targets(project, files);

  const ours: number[] = [];
  const readTree: number[] = [];
  const catFile: number[] = [];
  for (let i = 0; i < runs; i++) {
    edit(changed, i);
    ours.push(await time(() => restoreCheckpoint(engine, base.id)));
    edit(changed, i);
    readTree.push(await time(() => readTreeRestore(floorA, project, base.tree)));
    edit(changed, i);
    catFile.push(await time(() => catFileRestore(floorB, project, base.tree, path.join(stores, `staging-${i}`))));
  }
  floorA.remove();
  floorB.remove();
  fs.rmSync(stores, { recursive: true, force: true });
  const stat = (values: number[]) => ({ median: round(median(values)), p90: round(percentile(values, 0.9)) });
  const a = stat(readTree);
  const b = stat(catFile);
  const fastest = a.median <= b.median ? a : b;
  const rewind = stat(ours);
  return {
    files,
    rewind,
    readTreeFloor: a,
    catFileFloor: b,
    fastestFloor: a.median <= b.median ? 'read-tree --reset -u' : 'diff-tree + cat-file --batch + rename',
    ratio: round(rewind.median / fastest.median, 2),
  };
}
