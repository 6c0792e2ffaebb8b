import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A hermetic environment for the git the bench runs itself (never the user's config). */
export const benchEnv: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-bench-home-')),
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@localhost',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@localhost',
};

export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, { cwd, env: benchEnv, input, maxBuffer: 1 << 30 }).toString().trim();
}

/** Spawns git from Node and waits, as the engine would: the floor pays the same ~7 ms spawn cost. */
export function gitAsync(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: benchEnv });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString().trim()) : reject(new Error(`git ${args.join(' ')}: ${Buffer.concat(err)}`))));
  });
}

/** A git repository of `files` small files in nested folders, committed. */
export function makeRepo(root: string, files: number): string {
  const dir = path.join(root, `repo-${files}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q']);
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, `d${i % 50}`, `s${Math.floor(i / 50) % 20}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `f${i}.txt`), `file ${i}\n`.repeat(20));
  }
  // Files written an hour before the index, as in a project worked on for a while: git's
  // "racily clean" check would otherwise make every reader of this fresh index rehash all.
  const past = new Date(Date.now() - 3_600_000);
  for (let i = 0; i < files; i++) {
    fs.utimesSync(path.join(dir, `d${i % 50}`, `s${Math.floor(i / 50) % 20}`, `f${i}.txt`), past, past);
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-qm', 'bench fixture']);
  return dir;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
