import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { UserError } from '../../shared/errors.js';
import { stopGroup, trackGroup, untrackGroup } from '../../os/processGroup.js';
import { withOwner } from '../../os/processOwner.js';
import { childProcess } from '../../os/childProcess.js';

/** What to say when git (or the sh that runs it) is not installed. */
export function programMissing(file: string, cause?: unknown): UserError {
  return new UserError(`${file} was not found on PATH: install ${file} (checkpoints need git 2.25 or newer)`, { cause });
}

/**
 * Fails with the one line of programMissing unless `git` is an executable file on the
 * PATH of `env` (looked up, not run: a process costs ~10 ms here).
 */
export function requireGit(env: NodeJS.ProcessEnv): void {
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const file = path.resolve(dir || '.', 'git');
    try {
      if (fs.statSync(file).isFile()) {
        fs.accessSync(file, fs.constants.X_OK);
        return;
      }
    } catch {
      // Not here.
    }
  }
  throw programMissing('git');
}

/** How long any one git process may run before it is killed (ms). */
export const defaultGitTimeoutMs = 120_000;

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  input?: string | Buffer;
  timeoutMs?: number;
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: readonly number[];
  /** Sees each chunk of stdout as it comes (progress); the whole is still returned. */
  onStdout?: (chunk: Buffer) => void;
  /** Stops the process and all it started (its group) once aborted; it then fails with `Stopped`. */
  signal?: AbortSignal;
}

/** A process stopped because its caller no longer wanted it (RunOptions.signal). */
export class Stopped extends Error {
  constructor(what: string) {
    super(`${what} was stopped`);
    this.name = 'Stopped';
  }
}

export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** A git (or sh) process that failed: the command, its exit code and what it said. */
export class GitError extends Error {
  readonly code: number | null;
  readonly stderr: string;
  readonly args: readonly string[];

  constructor(args: readonly string[], code: number | null, stderr: string, why?: string) {
    const said = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' / ');
    super(`${why ?? `git ${args.join(' ')} exited with ${code}`}${said ? `: ${said}` : ''}`);
    this.name = 'GitError';
    this.code = code;
    this.stderr = stderr;
    this.args = args;
  }
}

export interface FinishOptions {
  input?: string | Buffer;
  timeoutMs?: number;
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: readonly number[];
  /** Sees each chunk of stdout from now on, as it comes (progress). */
  onStdout?: (chunk: Buffer) => void;
  signal?: AbortSignal;
}

/** A process started ahead of the input it will be given. */
export interface StartedProcess {
  /** What it wrote to file descriptor 3 until it closed it (empty unless asked for). */
  fd3: Promise<Buffer>;
  /** Writes stdin and waits for the exit, with a deadline counted from now. */
  finish(options?: FinishOptions): Promise<RunResult>;
}

function collect(stream: Readable | null | undefined): Promise<Buffer> {
  if (!stream) return Promise.resolve(Buffer.alloc(0));
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => undefined);
    stream.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * Starts a program now and gives it its input later (`fd3`: also read its file descriptor 3).
 * Spawning blocks the event loop for several ms here, so a caller can start it first and
 * prepare the input meanwhile.
 */
export function startProcess(file: string, args: readonly string[], options: { cwd: string; env: Record<string, string>; fd3?: boolean }): StartedProcess {
  // Its own process group, so a timeout stops the git processes a script started too.
  const child = trackGroup(() => childProcess().spawn(file, args, { cwd: options.cwd, env: withOwner(options.env), stdio: options.fd3 ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'], detached: true }));
  const pid = child.pid;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let onStdout: ((chunk: Buffer) => void) | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    out.push(chunk);
    onStdout?.(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const exited = new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code }));
  });
  // A child that exits before reading its stdin makes the write fail with EPIPE: its
  // exit code tells what happened, so that error is not the one to report.
  child.stdin.on('error', () => undefined);
  const fd3 = options.fd3 ? collect(child.stdio[3] as Readable | null) : Promise.resolve(Buffer.alloc(0));

  async function finish(finishOptions: FinishOptions = {}): Promise<RunResult> {
    const timeoutMs = finishOptions.timeoutMs ?? defaultGitTimeoutMs;
    const okCodes = finishOptions.okCodes ?? [0];
    onStdout = finishOptions.onStdout;
    let stopped: Promise<void> | undefined;
    let aborted = false;
    const timer = setTimeout(() => {
      if (pid !== undefined) stopped ??= stopGroup(pid);
    }, timeoutMs);
    const abort = () => {
      aborted = true;
      if (pid !== undefined) stopped ??= stopGroup(pid);
    };
    if (finishOptions.signal?.aborted) abort();
    else finishOptions.signal?.addEventListener('abort', abort, { once: true });
    child.stdin.end(finishOptions.input ?? '');
    const { code, error } = await exited;
    clearTimeout(timer);
    finishOptions.signal?.removeEventListener('abort', abort);
    const timedOut = stopped !== undefined && !aborted;
    // Not before the whole group is gone: the caller's lock is released next, and a git of
    // the group still running would hold index.lock under the next holder.
    if (stopped) await stopped;
    else if (pid !== undefined) untrackGroup(pid);
    if (aborted) throw new Stopped(`${file} ${args.slice(0, 3).join(' ')}`);
    if (error?.code === 'ENOENT') throw programMissing(file, error);
    if (error) throw error;
    const stderr = Buffer.concat(err).toString('utf8');
    // A script's sh found no git (PATH changed since the engine checked, or never checked).
    if (file === 'sh' && code !== 0 && /^[^\n]*: (line )?\d+: git: (command )?not found$/m.test(stderr)) throw programMissing('git');
    if (timedOut) throw new GitError([file, ...args], code, stderr, `${file} ${args.slice(0, 3).join(' ')} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`);
    if (code === null || !okCodes.includes(code)) throw new GitError(file === 'git' ? args : [file, ...args], code, stderr);
    return { code, stdout: Buffer.concat(out), stderr };
  }
  return { fd3, finish };
}

/**
 * Runs a program to completion with a deadline; resolves with its output, rejects with a
 * GitError on a failing exit code or timeout, and with a UserError when it is not installed.
 */
export function runProcess(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return startProcess(file, args, options).finish(options);
}

/**
 * Starts a program nobody waits for (background maintenance): detached in its own process
 * group, no output kept. It outlives its starter on purpose, so it carries no owner mark
 * (a lock's next holder stops only the groups a dead holder left mid-step). Its pid, or
 * undefined when it could not start (best effort: the next trigger tries again).
 */
export function startDetached(file: string, args: readonly string[], options: { cwd: string; env: Record<string, string> }): number | undefined {
  try {
    const child = childProcess().spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  }
}

/** `git <args>` with the given environment and deadline. */
export function runGit(args: readonly string[], options: RunOptions): Promise<RunResult> {
  return runProcess('git', args, options);
}

/**
 * `git <args>` run to its end synchronously, for a process with nothing else to do meanwhile
 * (`rewind list`'s one diff): Node's asynchronous spawn (its streams, sockets and event-loop
 * handles) costs ~40M instructions, about half a Node start of its own, a synchronous one
 * ~5M (callgrind, `git --version`). Never in the app: it blocks. No process group, as such a
 * git starts no other; the same environment, owner mark, deadline and errors as runGit.
 */
export function runGitSync(args: readonly string[], options: Omit<RunOptions, 'onStdout'>): RunResult {
  const timeoutMs = options.timeoutMs ?? defaultGitTimeoutMs;
  const result = childProcess().spawnSync('git', args, { cwd: options.cwd, env: withOwner(options.env), input: options.input ?? '', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 2 ** 30 });
  const error = result.error as NodeJS.ErrnoException | undefined;
  const stderr = result.stderr.toString('utf8');
  if (error?.code === 'ENOENT') throw programMissing('git', error);
  if (error?.code === 'ETIMEDOUT') throw new GitError(args, result.status, stderr, `git ${args.slice(0, 3).join(' ')} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`);
  if (error) throw error;
  if (result.status === null || !(options.okCodes ?? [0]).includes(result.status)) throw new GitError(args, result.status, stderr);
  return { code: result.status, stdout: result.stdout, stderr };
}

/** Trimmed stdout as text. */
export function text(result: RunResult): string {
  return result.stdout.toString('utf8').trim();
}

/** Splits NUL-terminated output (`-z`) into records, dropping the final empty one. */
export function splitNul(output: Buffer | string): string[] {
  const parts = output.toString().split('\0');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}
