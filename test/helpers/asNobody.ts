// The built CLI run as an unprivileged user (uid/gid 65534), for what root would get past
// (files it may not read, folders it may not write). The files it must reach are the test's
// to hand over (chown). The checkout may be in a folder that user cannot enter (a clone in
// a private `mktemp -d` folder, or in /root): so what it runs (dist/, and node itself when
// that is out of its reach too) is copied into a folder it can read, once per test process.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { repoRoot, requireBuiltCli, runChild, seamsModule, type ChildResult } from './restoreKit.js';

export const nobodyIds = ['--reuid=65534', '--regid=65534', '--clear-groups'] as const;

export interface NobodyResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What uid 65534 runs: node and the CLI, both where it can reach them. */
export interface NobodyProgram {
  node: string;
  cli: string;
  /** The folder of the copy. */
  base: string;
}

let program: NobodyProgram | undefined;
/** The copy's node_modules holds only what was copied into it (the checkout's was out of that user's reach). */
let partialModules = false;

// Registered as the test file imports this helper: the copy goes when its tests are done
// (a test process's own exit is not a moment the runner promises).
afterAll(() => {
  if (program) fs.rmSync(program.base, { recursive: true, force: true });
  program = undefined;
  partialModules = false;
});

/** Whether uid 65534 can run `node` and, when given, list `folder` with it. */
function nobodyCanRun(node: string, folder?: string): boolean {
  const script = folder === undefined ? '' : 'require("node:fs").readdirSync(process.argv[1])';
  try {
    execFileSync('setpriv', [...nobodyIds, node, '-e', script, ...(folder === undefined ? [] : [folder])], { cwd: '/', stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const modulesOf = (root: string) => path.join(root, 'node_modules');

/**
 * Copies the packages `names` and every package they need (found as node finds them, from
 * `from` up to the checkout) from the checkout's node_modules into the copy's.
 */
function copyPackages(base: string, from: string, names: readonly string[]): void {
  const modules = modulesOf(repoRoot);
  const add = (pkg: string) => {
    const target = path.join(modulesOf(base), path.relative(modules, pkg));
    if (copied.has(pkg)) return;
    copied.add(pkg);
    if (!fs.existsSync(target)) fs.cpSync(pkg, target, { recursive: true, verbatimSymlinks: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { dependencies?: object; optionalDependencies?: object };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) find(pkg, name);
  };
  const find = (start: string, name: string) => {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(modulesOf(dir), name);
      if (fs.existsSync(path.join(candidate, 'package.json'))) return add(candidate);
      // An optional dependency of another platform is not installed.
      if (dir === repoRoot || path.dirname(dir) === dir) return;
    }
  };
  const copied = new Set<string>();
  for (const name of names) find(from, name);
}

/**
 * Node and the built CLI for uid 65534: the package's files (package.json, dist/, the config
 * schema) copied into a new 0755 folder in the system's temp folder; node_modules linked by
 * its real path when that user can read it there, else its runtime dependencies copied; and
 * node copied beside them when that user cannot run it where it is. Removed once the test
 * file's tests are done.
 */
export function nobodyProgram(): NobodyProgram {
  const cli = requireBuiltCli();
  if (program) return program;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-nobody-build-'));
  fs.chmodSync(base, 0o755);
  // What the package ships (its `files`: dist/, config.schema.json) is what the CLI reads.
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { files: string[]; dependencies: object };
  // The package's files, and the module a crash test preloads (withSeams).
  for (const entry of ['package.json', ...manifest.files, path.relative(repoRoot, seamsModule), path.relative(repoRoot, path.join(path.dirname(seamsModule), 'shortened.mjs'))]) fs.cpSync(path.join(repoRoot, entry), path.join(base, entry), { recursive: true, verbatimSymlinks: true });
  let node = process.execPath;
  if (!nobodyCanRun(node)) {
    node = path.join(base, 'bin', 'node');
    fs.mkdirSync(path.dirname(node));
    fs.copyFileSync(process.execPath, node);
    fs.chmodSync(node, 0o755);
  }
  const modules = modulesOf(repoRoot);
  partialModules = fs.existsSync(modules) && !nobodyCanRun(node, fs.realpathSync(modules));
  if (partialModules) copyPackages(base, repoRoot, Object.keys(manifest.dependencies));
  else if (fs.existsSync(modules)) fs.symlinkSync(fs.realpathSync(modules), modulesOf(base));
  // Everything copied readable (and folders enterable) by anyone, whatever the umask made.
  execFileSync('chmod', ['-R', 'a+rX', base]);
  program = { node, cli: path.join(base, 'dist', path.basename(cli)), base };
  return program;
}

/**
 * Where uid 65534 finds `file` of the checkout (an agent CLI in node_modules/.bin, say):
 * the same path in the copy; paths the copy does not hold as they are.
 */
export function nobodyPath(file: string): string {
  const relative = path.relative(repoRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return file;
  const { base } = nobodyProgram();
  const [top, scope, name] = relative.split(path.sep);
  if (partialModules && top === 'node_modules' && scope !== undefined) {
    // A program of node_modules/.bin: its package (and what it needs) is copied first.
    const real = path.relative(modulesOf(repoRoot), fs.realpathSync(file)).split(path.sep);
    const pkg = real[0]?.startsWith('@') ? `${real[0]}/${real[1]}` : (real[0] ?? '');
    copyPackages(base, repoRoot, [pkg]);
    if (scope === '.bin' && name !== undefined && !fs.existsSync(path.join(base, relative))) {
      fs.mkdirSync(path.dirname(path.join(base, relative)), { recursive: true });
      fs.cpSync(file, path.join(base, relative), { verbatimSymlinks: true });
    }
    execFileSync('chmod', ['-R', 'a+rX', modulesOf(base)]);
  }
  const copied = path.join(base, relative);
  return fs.existsSync(copied) ? copied : file;
}

/** `rewind ...args` in `cwd` with exactly `env`, as uid 65534 (setpriv). */
export function asNobody(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[]): NobodyResult {
  const { node, cli } = nobodyProgram();
  try {
    const stdout = execFileSync('setpriv', [...nobodyIds, node, cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, stdout: stdout.toString(), stderr: '' };
  } catch (error) {
    const failed = error as { status?: number | null; stdout?: Buffer; stderr?: Buffer };
    if (typeof failed.status !== 'number') throw error;
    return { code: failed.status, stdout: failed.stdout?.toString() ?? '', stderr: failed.stderr?.toString() ?? '' };
  }
}

/** The same, not blocking the test process (a crash test's child, say): as runBuiltCli answers. */
export function runAsNobody(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ChildResult> {
  const { node, cli } = nobodyProgram();
  return runChild('setpriv', [...nobodyIds, node, cli, ...args], env, cwd);
}
