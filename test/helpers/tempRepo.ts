// A hermetic sandbox for tests that run real git: a temp HOME, store and config dir,
// projects under the sandbox, and a git runner that never reads the user's config.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { running } from './children.js';
import { waitFor } from './waitFor.js';
import { CheckpointEngine, type EngineSettings } from '../../src/checkpoints/checkpointEngine.js';
import { openProjectCheckpoints, type ProjectCheckpoints } from '../../src/checkpoints/index.js';
import { readLock } from '../../src/os/lock.js';
import { isAlive } from '../../src/os/processAlive.js';

export const defaultSettings: EngineSettings = {
  checkpointMaxFileMb: 20,
  checkpointExclude: [],
  // No background gc in tests: a detached git must not outlive the temp dirs.
  gcEvery: 0,
  checkpointWarnGb: 2,
};

export interface Sandbox {
  /** The sandbox's own folder (real path); everything else lives under it. */
  base: string;
  /** HOME for every process the test starts. */
  home: string;
  /** REWIND_HOME: where the engine keeps its stores. */
  store: string;
  /** REWIND_CONFIG_DIR. */
  configDir: string;
  /** The environment handed to the engine and the CLI. */
  env: NodeJS.ProcessEnv;
  /** The environment of the test's own git commands. */
  gitEnv: NodeJS.ProcessEnv;
  /** `git -C dir ...args` (hermetic), returning stdout as text. */
  git(dir: string, ...args: string[]): string;
  /** Like `git`, with stdin input and stdout as bytes. */
  gitBytes(dir: string, args: readonly string[], input?: string | Buffer): Buffer;
  /** A new empty folder under the sandbox. */
  folder(name: string): string;
  /** A new folder with `git init`, one file (README.md) and a first commit on `main`. */
  repo(name: string): string;
  /** Opens the engine on `cwd` with the sandbox's store and env (its internals too, for checking). */
  open(cwd: string, settings?: Partial<EngineSettings>, extraEnv?: NodeJS.ProcessEnv): CheckpointEngine;
  /** Opens `cwd`'s checkpoints as the rest of Rewind does (src/checkpoints/index.ts). */
  project(cwd: string, settings?: Partial<EngineSettings>): ProjectCheckpoints;
  /** Removes everything the sandbox made (after background walks it started are done). */
  cleanup(): Promise<void>;
}

/**
 * The PATH a sandbox runs with: the test's own, without the folders `npm test` and `npx` put
 * first (node_modules/.bin, npm's node-gyp-bin). So a test sees the same programs however it
 * was started, and no pinned agent CLI is found on PATH by accident (`rewind doctor` asks each
 * one found for its version: Gemini CLI takes ~3 s of CPU to say it). A test that wants an
 * agent on PATH puts it there.
 */
export function sandboxPath(from = process.env.PATH ?? '/usr/bin:/bin'): string {
  return from
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !dir.endsWith(`${path.sep}node_modules${path.sep}.bin`) && !dir.endsWith(`${path.sep}node-gyp-bin`))
    .join(path.delimiter);
}

/** Environment for git run by a test: no system or global config, a fixed identity. */
export function hermeticGitEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: sandboxPath(),
    HOME: home,
    LC_ALL: 'C',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Test Committer',
    GIT_COMMITTER_EMAIL: 'committer@example.com',
    GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  };
}

export function runGitSync(env: NodeJS.ProcessEnv, dir: string, args: readonly string[], input?: string | Buffer): Buffer {
  try {
    return execFileSync('git', ['-C', dir, ...args], { env, input: input ?? '', maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    const failed = error as { stderr?: Buffer; status?: number };
    throw new Error(`git ${args.join(' ')} (in ${dir}) exited ${failed.status}: ${failed.stderr?.toString() ?? ''}`, { cause: error });
  }
}

export function createSandbox(prefix = 'rewind-test-'): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const home = path.join(base, 'home');
  const store = path.join(base, 'store');
  const configDir = path.join(base, 'config');
  const projects = path.join(base, 'p');
  for (const dir of [home, store, configDir, projects]) fs.mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = { PATH: sandboxPath(), HOME: home, REWIND_HOME: store, REWIND_CONFIG_DIR: configDir };
  const gitEnv = hermeticGitEnv(home);
  const gitBytes = (dir: string, args: readonly string[], input?: string | Buffer) => runGitSync(gitEnv, dir, args, input);
  const git = (dir: string, ...args: string[]) => gitBytes(dir, args).toString('utf8');
  const folder = (name: string) => {
    const dir = path.join(projects, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  return {
    base,
    home,
    store,
    configDir,
    env,
    gitEnv,
    git,
    gitBytes,
    folder,
    repo(name) {
      const dir = folder(name);
      git(dir, 'init', '-q', '-b', 'main');
      fs.writeFileSync(path.join(dir, 'README.md'), '# project\n');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', 'first');
      return dir;
    },
    open(cwd, settings = {}, extraEnv = {}) {
      return CheckpointEngine.open({ cwd, settings: { ...defaultSettings, ...settings }, home: store, env: { ...env, ...extraEnv } });
    },
    project(cwd, settings = {}) {
      return openProjectCheckpoints({ cwd, settings: { ...defaultSettings, ...settings }, home: store, env });
    },
    async cleanup() {
      await waitForBackgroundScans(store);
      await removeWhenStoresIdle(base, store);
    },
  };
}

/**
 * The sandbox's environment with each agent's own folder set too (CLAUDE_CONFIG_DIR,
 * GEMINI_CLI_HOME, CODEX_HOME, under the sandbox): nothing a test starts reaches the real
 * home through an agent's variable either.
 */
export function withAgentHomes(sb: Sandbox): NodeJS.ProcessEnv {
  return { ...sb.env, CLAUDE_CONFIG_DIR: path.join(sb.base, 'claude'), GEMINI_CLI_HOME: path.join(sb.base, 'gemini'), CODEX_HOME: path.join(sb.base, 'codex') };
}

/**
 * Snapshots start a background walk for heavy files (its pid in heavy-scan.started); the
 * sandbox may only be removed once those are done, or they write into a folder being
 * deleted. Waits for each, with a deadline.
 */
async function waitForBackgroundScans(store: string): Promise<void> {
  const stores = storesUnder(store);
  const deadline = Date.now() + 10_000;
  for (const dir of stores) {
    let pid: number;
    try {
      pid = Number(fs.readFileSync(path.join(dir, 'heavy-scan.started'), 'utf8'));
    } catch {
      continue;
    }
    // Its starter, the snapshot's sh, is gone: once ended, the walk waits for init (`running`).
    if (pid > 0) await waitFor(() => !running(pid), Math.max(0, deadline - Date.now()), `the heavy-file walk ${pid}`).catch(() => undefined);
  }
}

/** The stores' folders under REWIND_HOME `store` (none: []). */
function storesUnder(store: string): string[] {
  try {
    return fs.readdirSync(path.join(store, 'history')).map((name) => path.join(store, 'history', name));
  } catch {
    return [];
  }
}

/** Whether a live process holds some store's lock (a hook checkpointing by itself after the app was killed, say). */
function storeLockHeld(store: string): boolean {
  return storesUnder(store).some((dir) => {
    const holder = readLock(path.join(dir, 'lock'));
    return holder !== undefined && isAlive(holder);
  });
}

/**
 * Removes the sandbox. A test that ends an agent mid-turn can leave one of its hooks
 * checkpointing by itself (the app gone) into a store being removed (ENOTEMPTY): such a
 * writer is waited for (its lock released), then the removal is tried again, with a deadline.
 */
async function removeWhenStoresIdle(base: string, store: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await waitFor(() => !storeLockHeld(store), Math.max(0, deadline - Date.now()), 'the stores\' locks released').catch(() => undefined);
    try {
      fs.rmSync(base, { recursive: true, force: true, maxRetries: 3 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || Date.now() > deadline) throw error;
    }
  }
}

/** Writes a file, creating its folders. */
export function write(root: string, file: string, data: string | Buffer, mode?: number): void {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, data);
  if (mode !== undefined) fs.chmodSync(full, mode);
}

/** Sets a file's times to `secondsAgo` in the past (so git's index does not hold it racily clean). */
export function age(root: string, file: string, secondsAgo = 60): void {
  const when = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(path.join(root, file), when, when);
}
