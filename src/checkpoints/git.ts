import { spawn } from 'node:child_process';
import { UserError } from '../errors.js';

/** How long any one git process may run before it is killed (ms). */
export const defaultGitTimeoutMs = 120_000;

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  input?: string | Buffer;
  timeoutMs?: number;
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: readonly number[];
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

/**
 * Runs a program to completion with a deadline; resolves with its output, rejects with a
 * GitError on a failing exit code or timeout, and with a UserError when it is not installed.
 */
export function runProcess(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? defaultGitTimeoutMs;
  const okCodes = options.okCodes ?? [0];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT') {
        reject(new UserError(`${file} was not found on PATH: install ${file} (checkpoints need git 2.25 or newer)`, { cause: error }));
      } else {
        reject(error);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) {
        reject(new GitError([file, ...args], code, stderr, `${file} ${args.slice(0, 3).join(' ')} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
      } else if (code !== null && okCodes.includes(code)) {
        resolve({ code, stdout: Buffer.concat(out), stderr });
      } else {
        reject(new GitError(file === 'git' ? args : [file, ...args], code, stderr));
      }
    });
    // A child that exits before reading its stdin makes the write fail with EPIPE: its
    // exit code tells what happened, so that error is not the one to report.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** `git <args>` with the given environment and deadline. */
export function runGit(args: readonly string[], options: RunOptions): Promise<RunResult> {
  return runProcess('git', args, options);
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
