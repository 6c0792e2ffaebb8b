// Drives the BUILT rewind CLI in a real pty and reads its screen through @xterm/headless,
// as a person would see it. Input is written only after a condition on the screen holds.
import fs from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';
import type { IBufferCell } from '@xterm/headless';
import { afterEach, beforeEach } from 'vitest';
import { useCurrentWidths } from '../../src/pty/cellWidth.js';
import { DrainAtExit } from '../../src/pty/drainAtExit.js';
import { createSandbox, type Sandbox } from './tempRepo.js';
import type { OuterKeyboard } from './outerKeyboard.js';

const { Terminal } = xtermHeadless;

export const cliPath = path.resolve(import.meta.dirname, '../../dist/cli.js');

/** The built CLI must exist (`npm test` builds first). */
export function requireBuiltCli(): void {
  if (!fs.existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npm run build\` (npm test does) before the end-to-end tests`);
}

/** One cell as the terminal holds it: what it shows and how (see TermSession.cells). */
export interface Cell {
  chars: string;
  width: number;
  /** `default`, `p<index>` (palette) or `#rrggbb`. */
  fg: string;
  bg: string;
  /** bold, dim, italic, underline, inverse, invisible, strikethrough, blink, overline: the ones set. */
  attrs: string;
}

/** Where the terminal's cursor is (viewport cells, 0-based; x kept on the screen while a wrap is pending) and whether it is shown. */
export interface TermCursor {
  x: number;
  y: number;
  visible: boolean;
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
  /** The visible screen cell by cell (the blank half of a wide character included, width 0). */
  cells(): Cell[][];
  /** The cursor as the terminal would show it. */
  cursor(): TermCursor;
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
  /** Lines kept above the screen, as a terminal keeps them (default 1000). */
  scrollback?: number;
  /** Whether the terminal answers the program's queries (default true): false plays a terminal that answers none. */
  answers?: boolean;
  /** Answers the terminal gives beyond xterm.js's own: to a CSI query (its prefix and final byte), `reply`. */
  replies?: readonly { prefix?: string; final: string; reply: string }[];
  /** The colours the terminal reports when asked (OSC 10, 11 with `?`; xterm.js alone reports none), as `rgb:rrrr/gggg/bbbb`; answers end with ST, `lateMs` after the question if given. */
  colours?: { foreground: string; background: string; lateMs?: number; answered?: () => void };
  /** The terminal's keyboard modes (kitty flags, modifyOtherKeys) and XTVERSION, kept and answered as such a terminal would; none: xterm.js alone (neither). */
  keyboard?: OuterKeyboard;
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
  // As a terminal would, everything the program wrote before it exited is read (node-pty alone can lose the tail).
  const drain = new DrainAtExit(child);
  // A terminal as users have them: a scrollback, and today's widths (✅ and CJK take two columns).
  const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: options.scrollback ?? 1000 });
  useCurrentWidths(term);
  let cursorVisible = true;
  const trackCursor = (on: boolean) => (params: (number | number[])[]) => {
    if (params.includes(25)) cursorVisible = on;
    return false;
  };
  term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, trackCursor(true));
  term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, trackCursor(false));
  let raw = '';
  const waiters = new Set<() => void>();
  child.onData((data) => {
    drain.sawData();
    raw += data;
    term.write(data, () => {
      for (const waiter of waiters) waiter();
    });
  });
  // The terminal's answers to the app's queries (cursor position, device attributes).
  if (options.answers ?? true) term.onData((answer) => child.write(answer));
  for (const { prefix, final, reply } of options.replies ?? []) {
    term.parser.registerCsiHandler({ ...(prefix === undefined ? {} : { prefix }), final }, () => {
      term.input(reply, false);
      return true;
    });
  }
  options.keyboard?.install(term);
  const { colours } = options;
  if (colours) {
    for (const [code, spec] of [[10, colours.foreground], [11, colours.background]] as const) {
      term.parser.registerOscHandler(code, (data) => {
        if (data !== '?') return false;
        const answer = `\x1b]${code};${spec}\x1b\\`;
        if (colours.lateMs === undefined) term.input(answer, false);
        else
          setTimeout(() => {
            term.input(answer, false);
            colours.answered?.();
          }, colours.lateMs);
        return true;
      });
    }
  }
  // Settled once the terminal has also read everything the program wrote (xterm parses later
  // than it is given data), or at once when the terminal is closed.
  let settleExit: (() => void) | undefined;
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) =>
    child.onExit((exit) => {
      drain.exited();
      settleExit = () => resolve(exit);
      term.write('', settleExit);
    }),
  );
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
    cells: () => cellsOf(term),
    cursor() {
      const buffer = term.buffer.active;
      return { x: Math.min(buffer.cursorX, term.cols - 1), y: buffer.baseY + buffer.cursorY - buffer.viewportY, visible: cursorVisible };
    },
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
      settleExit?.();
    },
  };
}

type XtermTerminal = InstanceType<typeof Terminal>;

function colorOf(mode: 'fg' | 'bg', cell: IBufferCell): string {
  const [isDefault, isRgb, color] = mode === 'fg' ? [cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor()] : [cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor()];
  if (isDefault) return 'default';
  return isRgb ? `#${color.toString(16).padStart(6, '0')}` : `p${color}`;
}

/** The viewport of `term`, cell by cell. */
function cellsOf(term: XtermTerminal): Cell[][] {
  const buffer = term.buffer.active;
  const scratch = buffer.getNullCell();
  const rows: Cell[][] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    const row: Cell[] = [];
    for (let x = 0; x < term.cols; x++) {
      const cell = line?.getCell(x, scratch);
      if (!cell) {
        row.push({ chars: '', width: 1, fg: 'default', bg: 'default', attrs: '' });
        continue;
      }
      const flags: [string, number][] = [
        ['bold', cell.isBold()],
        ['dim', cell.isDim()],
        ['italic', cell.isItalic()],
        ['underline', cell.isUnderline()],
        ['inverse', cell.isInverse()],
        ['invisible', cell.isInvisible()],
        ['strikethrough', cell.isStrikethrough()],
        ['blink', cell.isBlink()],
        ['overline', cell.isOverline()],
      ];
      row.push({
        chars: cell.getChars(),
        width: cell.getWidth(),
        fg: colorOf('fg', cell),
        bg: colorOf('bg', cell),
        attrs: flags.filter(([, on]) => on !== 0).map(([name]) => name).join(','),
      });
    }
    rows.push(row);
  }
  return rows;
}

/**
 * For a test file of pty sessions: a fresh sandbox before each test (`sb`), and every
 * session `track`ed killed and closed after it, then the sandbox removed.
 */
export function terminalSandbox(prefix: string): { readonly sb: Sandbox; readonly started: number; track<T extends TermSession>(session: T): T } {
  let sandbox: Sandbox | undefined;
  let sessions: TermSession[] = [];
  beforeEach(() => {
    sandbox = createSandbox(prefix);
    sessions = [];
  });
  afterEach(async () => {
    for (const session of sessions) {
      session.kill('SIGKILL');
      await session.exited;
      session.close();
    }
    await sandbox?.cleanup();
  });
  return {
    get sb() {
      if (!sandbox) throw new Error('the sandbox exists only inside a test');
      return sandbox;
    },
    get started() {
      return sessions.length;
    },
    track(session) {
      sessions.push(session);
      return session;
    },
  };
}
