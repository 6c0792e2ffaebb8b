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

/** Text of roughly `bytes` bytes, different for every seed. */
function sourceLike(seed: number, bytes: number): string {
  const line = `export const value${seed} = compute(${seed}, "some typical source text for file ${seed}");\n`;
  return line.repeat(Math.max(1, Math.round(bytes / line.length)));
}

/**
 * A git repository of `files` source-like files (1 to 8 KB, about 4.5 KB on average) in
 * nested folders, committed and packed, its files older than its index: a project that
 * has lived a while, not one written a moment ago.
 */
export function makeRepo(root: string, files: number): string {
  const dir = path.join(root, `repo-${files}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q']);
  const past = new Date(Date.now() - 3_600_000);
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, `d${i % 50}`, `s${Math.floor(i / 50) % 20}`);
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `f${i}.txt`);
    fs.writeFileSync(file, sourceLike(i, 1024 + ((i * 2654435761) % 7168)));
    // Older than the index: git's "racily clean" check would otherwise rehash every file.
    fs.utimesSync(file, past, past);
  }
  git(dir, ['add', '-A']);
  // No background auto-gc racing the measurements; packed (no delta search, to be quick).
  git(dir, ['-c', 'gc.auto=0', 'commit', '-qm', 'bench fixture']);
  git(dir, ['repack', '-a', '-d', '-q', '--window=0']);
  git(dir, ['prune-packed']);
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

/** The environment the app runs with in a bench: a terminal, HOME at `home`, its own store and config under `work` (named by `name`). */
export function appEnv(work: string, name: string, home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    REWIND_HOME: path.join(work, `${name}-store`),
    REWIND_CONFIG_DIR: path.join(work, `${name}-config`),
  };
}
