// Drives the BUILT rewind CLI in a real pty and reads its screen through @xterm/headless,
// as a person would see it. Input is written only after a condition on the screen holds.
import fs from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;

export const cliPath = path.resolve(import.meta.dirname, '../../dist/cli.js');

/** The built CLI must exist (`npm test` builds first). */
export function requireBuiltCli(): void {
  if (!fs.existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npm run build\` (npm test does) before the end-to-end tests`);
}

export interface TermSession {
  /** Sends bytes as typed (one write = one read on the other side, usually). */
  write(data: string): void;
  /** Sends these exact bytes (a string would be sent as UTF-8). */
  writeBytes(data: Uint8Array): void;
  /** The visible screen, one string per row, trailing blanks trimmed. */
  lines(): string[];
  /** The screen as one string (rows joined with newlines). */
  text(): string;
  /** Everything the program wrote, raw. */
  output(): string;
  /** Waits until `check(screenText)` holds, or fails with the screen in the message. */
  waitFor(check: RegExp | ((screen: string) => boolean), timeoutMs?: number, what?: string): Promise<void>;
  resize(cols: number, rows: number): void;
  /** The palette colour of the first occurrence of `text` drawn in a colour, if any. */
  colorOf(text: string): number | undefined;
  kill(signal?: string): void;
  /** Closes the terminal (the pty's master side), as closing the window does: SIGHUP. */
  hangUp(): void;
  exited: Promise<{ exitCode: number; signal?: number }>;
  pid: number;
  close(): void;
}

export interface PtyOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  cols?: number;
  rows?: number;
}

/** Starts `node dist/cli.js ...args` in a pty of cols x rows, with `env` (CI is removed, as in a user's terminal: with CI set, Ink ignores resizes). */
export function startRewind(args: readonly string[], options: PtyOptions): TermSession {
  requireBuiltCli();
  return startInPty(process.execPath, [cliPath, ...args], options, 'rewind');
}

/** Starts `command ...args` in a pty, read through @xterm/headless (as startRewind, for any program). */
export function startInPty(command: string, args: readonly string[], options: PtyOptions, label = path.basename(command)): TermSession {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...options.env, TERM: 'xterm-256color' })) if (value !== undefined && key !== 'CI') env[key] = value;
  const child = pty.spawn(command, [...args], { name: 'xterm-256color', cols, rows, cwd: options.cwd, env });
  const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
  let raw = '';
  const waiters = new Set<() => void>();
  child.onData((data) => {
    raw += data;
    term.write(data, () => {
      for (const waiter of waiters) waiter();
    });
  });
  // The terminal's answers to the app's queries (cursor position, device attributes).
  term.onData((answer) => child.write(answer));
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit((exit) => resolve(exit)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const waiter of waiters) waiter();
  });

  const lines = () => {
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < term.rows; y++) out.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return out;
  };
  const text = () => lines().join('\n');

  return {
    write: (data) => child.write(data),
    // node-pty types write for text, but passes what it gets to the pty's socket as it is.
    writeBytes: (data) => (child as { write(data: string | Uint8Array): void }).write(data),
    lines,
    text,
    output: () => raw,
    waitFor(check, timeoutMs = 15_000, what) {
      const test = typeof check === 'function' ? check : (screen: string) => check.test(screen);
      return new Promise((resolve, reject) => {
        const attempt = () => {
          if (test(text())) {
            cleanup();
            resolve();
          } else if (done) {
            cleanup();
            reject(new Error(`${label} exited before ${what ?? String(check)} appeared; screen:\n${text()}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? String(check)}; screen:\n${text()}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(attempt);
        };
        waiters.add(attempt);
        attempt();
      });
    },
    resize(newCols, newRows) {
      child.resize(newCols, newRows);
      term.resize(newCols, newRows);
    },
    colorOf(needle) {
      const buffer = term.buffer.active;
      for (let y = 0; y < term.rows; y++) {
        const line = buffer.getLine(buffer.viewportY + y);
        const at = line?.translateToString(false).indexOf(needle) ?? -1;
        const cell = line && at >= 0 ? line.getCell(at) : undefined;
        if (cell && !cell.isFgDefault()) return cell.getFgColor();
      }
      return undefined;
    },
    kill: (signal = 'SIGTERM') => {
      try {
        process.kill(child.pid, signal);
      } catch {
        // Already gone.
      }
    },
    hangUp() {
      (child as unknown as { destroy(): void }).destroy();
    },
    exited,
    pid: child.pid,
    close() {
      if (!done) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      term.dispose();
    },
  };
}
