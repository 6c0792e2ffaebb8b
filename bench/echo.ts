// Keystroke echo, measured as the user's terminal sees it: a key written to the pty that the
// program runs in, and the time until that key is drawn back. Bare (`cat`, whose echo is the
// pty's own, and `bash`, whose echo is readline's) and through Rewind (`rewind -- cat`,
// `rewind -- bash`), Rewind run as users run it (the executable).
import fs from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import { appEnv, median, percentile, round } from './lib.js';
import { cli } from './process.js';

// eslint-disable-next-line no-control-regex
const escapes = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]|\x1b[()][0-9A-Za-z]/g;

/** Printable text of terminal output, escape sequences taken out. */
export function visible(output: string): string {
  return output.replace(escapes, '');
}

export interface PtyRun {
  /** Resolves with the ms from now until `needle` is drawn (in the output from now on). */
  waitFor(needle: string, timeoutMs?: number): Promise<number>;
  write(data: string): void;
  kill(): Promise<void>;
}

/** Starts `argv` in a 120x40 pty (the output is only watched, not emulated). */
export function startInPty(argv: readonly string[], cwd: string, env: Record<string, string>): PtyRun {
  const [file = '', ...args] = argv;
  const child = pty.spawn(file, args, { cols: 120, rows: 40, cwd, env, name: 'xterm-256color' });
  let pending: string = '';
  let waiter: (() => void) | undefined;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.onExit(() => {
      exited = true;
      resolve();
    }),
  );
  child.onData((data) => {
    pending += data;
    waiter?.();
  });
  return {
    waitFor(needle, timeoutMs = 10_000) {
      pending = '';
      const start = performance.now();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${argv.join(' ')}: no ${JSON.stringify(needle)} within ${timeoutMs} ms (saw ${JSON.stringify(visible(pending).slice(-200))})`)), timeoutMs);
        waiter = () => {
          if (!visible(pending).includes(needle)) return;
          const ms = performance.now() - start;
          waiter = undefined;
          clearTimeout(timer);
          resolve(ms);
        };
        waiter();
      });
    },
    write: (data) => child.write(data),
    async kill() {
      if (!exited) child.kill('SIGKILL');
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface EchoRow {
  program: 'cat' | 'bash';
  how: 'bare pty' | 'rewind';
  echoMs: { median: number; p90: number };
  keys: number;
}

/**
 * Echo latency of `keys` keystrokes per session: each `#` written once the screen is quiet,
 * timed until a `§` is drawn (a character Rewind's status line never shows, unlike `#`), then
 * the line is cleared with Ctrl+U (cooked-mode `cat` and readline both kill the line) so the
 * next `§` is the only one.
 */
async function echoOf(argv: readonly string[], cwd: string, env: Record<string, string>, settleMs: number, keys: number): Promise<number[]> {
  const run = startInPty(argv, cwd, env);
  const times: number[] = [];
  try {
    await sleep(settleMs);
    for (let i = 0; i < keys; i++) {
      const seen = run.waitFor('§', 5_000);
      run.write('§');
      times.push(await seen);
      await sleep(60);
      run.write('\x15');
      await sleep(140);
    }
  } finally {
    await run.kill();
  }
  return times;
}

export async function benchEcho(work: string, sessions: number, keys = 20): Promise<EchoRow[]> {
  const dir = path.join(work, 'echo');
  fs.mkdirSync(dir, { recursive: true });
  const env: Record<string, string> = {
    ...appEnv(work, 'echo', dir),
    PS1: '$ ',
    // bash's readline takes the UTF-8 key only in a UTF-8 locale (in C it rings the bell).
    LANG: 'C.UTF-8',
  };
  const programs = { cat: ['cat'], bash: ['bash', '--norc', '--noprofile', '-i'] } as const;
  const hows: [EchoRow['how'], string[], number][] = [
    ['bare pty', [], 500],
    // Ink loads once the agent's output is quiet, at the latest 3 s after start: wait past it.
    ['rewind', [cli, '--'], 4_000],
  ];
  const rows: EchoRow[] = [];
  for (const [program, command] of Object.entries(programs) as [EchoRow['program'], readonly string[]][]) {
    const times = new Map<EchoRow['how'], number[]>(hows.map(([how]) => [how, []]));
    for (let s = 0; s < sessions; s++) {
      for (const [how, prefix, settle] of hows) times.get(how)?.push(...(await echoOf([...prefix, ...command], dir, env, settle, keys)));
    }
    for (const [how] of hows) {
      const values = times.get(how) ?? [];
      rows.push({ program, how, echoMs: { median: round(median(values)), p90: round(percentile(values, 0.9)) }, keys: values.length });
    }
  }
  return rows;
}
