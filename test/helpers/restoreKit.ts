// Tools for the restore tests: the project's state as data, the built CLI as a child
// process, waiting for conditions, and letting background walks finish before cleanup.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprint } from './fingerprint.js';
import { shadowGit } from './shadow.js';

/** The repository's root folder (where package.json is). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI: `npm test` builds it first. */
export const builtCli = path.join(repoRoot, 'dist', 'cli.js');
/** The module a built `rewind` preloads to act at the engine's seams (test/helpers/seams.mjs). */
export const seamsModule = path.join(repoRoot, 'test', 'helpers', 'seams.mjs');

/**
 * `env` for a built `rewind` that acts at the engine's seams as `seams` says (REWIND_TEST_CRASH_AT,
 * REWIND_TEST_CRASH_AFTER_OPS, REWIND_TEST_PAUSE_AT/_DIR: see seams.mjs), read only by the
 * preloaded module (`module`: where the process can read it).
 */
export function withSeams(env: NodeJS.ProcessEnv, seams: Record<string, string>, module = seamsModule): NodeJS.ProcessEnv {
  return { ...env, ...seamsEnv(seams, module) };
}

/** The variables alone that make a built `rewind` act as `seams` says (a wait shortened, the clock moved: see seams.mjs). */
export function seamsEnv<T extends Record<string, string>>(seams: T, module = seamsModule): T & { NODE_OPTIONS: string } {
  return { ...seams, NODE_OPTIONS: `--import="${module}"` };
}

/** The sources the command-line engine is built from (not the app, pty or agents). */
const engineSources = ['cli.ts', 'cli', 'commands', 'checkpoints', 'config', 'shared'];

function newestMtime(entry: string): { file: string; mtimeMs: number } {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return { file: entry, mtimeMs: stat.mtimeMs };
  let newest = { file: entry, mtimeMs: 0 };
  for (const name of fs.readdirSync(entry)) {
    const candidate = newestMtime(path.join(entry, name));
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}

/**
 * The path of the built CLI; throws a clear error when dist/cli.js is missing or older
 * than a source of the command-line engine (the tests would run yesterday's code).
 */
export function requireBuiltCli(): string {
  if (!fs.existsSync(builtCli)) throw new Error(`${builtCli} is missing: run \`npm run build\` first (\`npm test\` does)`);
  const built = fs.statSync(builtCli).mtimeMs;
  const source = engineSources
    .map((name) => path.join(repoRoot, 'src', name))
    .filter((entry) => fs.existsSync(entry))
    .map(newestMtime)
    .reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
  if (source.mtimeMs > built) {
    throw new Error(`${builtCli} is older than ${path.relative(repoRoot, source.file)}: run \`npm run build\` first (\`npm test\` does)`);
  }
  return builtCli;
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/cli.js ...args` in `cwd` with exactly `env` (no inherited variables),
 * through `wrapper` when given (a command line it is appended to: `setpriv …`, `unshare …`).
 * Call requireBuiltCli() once first (in beforeAll).
 */
export function runBuiltCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, wrapper: readonly string[] = []): Promise<ChildResult> {
  const [command = process.execPath, ...prefix] = [...wrapper, ...(wrapper.length > 0 ? [process.execPath] : [])];
  return runChild(command, [...prefix, builtCli, ...args], env, cwd);
}

/** Runs `command ...args` in `cwd` with exactly `env`, to its end: its exit and what it printed. */
export function runChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

export type State = Record<string, string>;

/**
 * Every entry of the project except `.git` (and, when given, other top-level names):
 * '/'-separated path -> type, mode and bytes (see fingerprint()).
 */
export function projectState(root: string, leaveOut: readonly string[] = []): State {
  const out: State = {};
  for (const [rel, value] of Object.entries(fingerprint(root))) {
    const file = rel.split(path.sep).join('/');
    const top = file.split('/')[0] ?? '';
    if (top === '.git' || leaveOut.includes(top)) continue;
    out[file] = value;
  }
  return out;
}

/** A state without its folders: files and symlinks only. */
export function withoutFolders(state: State): State {
  return Object.fromEntries(Object.entries(state).filter(([, value]) => !value.startsWith('dir ')));
}

/** Calls `visit` with every file and symlink under `root` (except `.git`): '/'-separated path, full path, lstat. */
export function eachFile(root: string, visit: (rel: string, full: string, stat: fs.Stats) => void): void {
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (rel === '.git') continue;
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else visit(rel, full, stat);
    }
  };
  walk(root);
}

/** mtime and inode of every file and symlink under `root` (except `.git`). */
export function stamps(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  eachFile(root, (rel, _full, stat) => (out[rel] = `${stat.mtimeMs} ino ${stat.ino}`));
  return out;
}

/** The redo stack's refs in the shadow repo, oldest first. */
export function redoRefs(gitDir: string): string[] {
  return shadowGit(gitDir, 'for-each-ref', '--format=%(refname)', 'refs/rewind/redo/')
    .split('\n')
    .filter(Boolean)
    .sort((a, b) => Number(/redo\/(\d+)-/.exec(a)?.[1]) - Number(/redo\/(\d+)-/.exec(b)?.[1]));
}

/** Whether the project or the store holds leftovers of a restore (journal, staging). */
export function restoreLeftovers(storeRoot: string, projectRoot: string): string[] {
  const inStore = fs.existsSync(storeRoot) ? fs.readdirSync(storeRoot).filter((name) => name === 'journal' || name.startsWith('staging-')) : [];
  const inProject = fs.readdirSync(projectRoot).filter((name) => name.startsWith('.rewind-staging-'));
  return [...inStore, ...inProject];
}

/** What `rewind restore --json` prints. */
export interface RestoreJson {
  checkpoint: number;
  changed: string[];
  deleted: string[];
  redo: number | null;
}

type Cli = (argv: string[], env: NodeJS.ProcessEnv, cwd: string) => Promise<{ code: number; stdout: string; stderr: string }>;

/** `rewind snapshot --json` through `cli`; the new checkpoint's id. Throws with stderr on failure. */
export async function snapshotId(cli: Cli, env: NodeJS.ProcessEnv, root: string, label = 'test'): Promise<number> {
  const result = await cli(['snapshot', '--json', '--label', label], env, root);
  if (result.code !== 0) throw new Error(`rewind snapshot exited ${result.code}: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { id: number }).id;
}

/** `rewind restore <id> --yes --json ...extra` through `cli`. Throws with stderr on failure. */
export async function restoreJson(cli: Cli, env: NodeJS.ProcessEnv, root: string, id: number, extra: readonly string[] = []): Promise<RestoreJson> {
  const result = await cli(['restore', String(id), '--yes', '--json', ...extra], env, root);
  if (result.code !== 0) throw new Error(`rewind restore ${id} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as RestoreJson;
}

/** What restoring `to` over `from` must report: paths written (to has them, different) and deleted (only in from). */
export function expectedChange(from: State, to: State): { changed: string[]; deleted: string[] } {
  const a = withoutFolders(from);
  const b = withoutFolders(to);
  const changed = Object.keys(b).filter((file) => a[file] !== b[file]).sort();
  const deleted = Object.keys(a).filter((file) => !(file in b)).sort();
  return { changed, deleted };
}
