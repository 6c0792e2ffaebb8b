// @xterm/headless is CommonJS with a broken `module` field: its named ESM import
// type-checks but fails at run time. Take Terminal from the default export.
import xtermHeadless from '@xterm/headless';
import type { IBufferLine, Terminal as XtermTerminal } from '@xterm/headless';
import { sgrRow } from './sgrRow.js';
import type { InputModes } from './terminalModes.js';

const { Terminal } = xtermHeadless;

/** The child's cursor, in viewport cells from the top-left (0-based). */
export interface CursorState {
  x: number;
  y: number;
  visible: boolean;
}

/** The child's terminal modes: those to mirror outside, and whether it is full-screen. */
export interface ScreenModes extends InputModes {
  /** The alternate screen (`?1049h`, `?47h`) is active: vim, less, most TUIs. */
  alternateScreen: boolean;
}

/**
 * The child's screen, emulated by @xterm/headless: feed it the pty's output, read back
 * rows to draw. The only user of @xterm/headless.
 */
/** Rows xterm reports changed since they were last read: a range, or every row. */
type Changed = { start: number; end: number } | 'all';

/** The event xterm's own renderer redraws by. Internal to xterm (version pinned; checked by tests). */
interface RefreshSource {
  onRequestRefreshRows?: (listener: (range: { start: number; end: number } | undefined) => void) => { dispose(): void };
}

/** Flags in xterm's packed cells: content kept beside the cell (combining marks), extended attributes (underline styles and colours). */
const COMBINED_CONTENT = 0x200000;
const EXTENDED_ATTRIBUTES = 0x10000000;

/**
 * A row's cells as xterm packs them (3 words a cell: content and width, foreground, background),
 * when they say everything the row draws (no cell keeps anything beside them); otherwise
 * undefined. Internal to xterm, like the refresh event: without it, rows are converted.
 */
function packedCells(line: IBufferLine | undefined, cols: number): Uint32Array | undefined {
  const data = (line as unknown as { _line?: { _data?: unknown } } | undefined)?._line?._data;
  if (!(data instanceof Uint32Array) || data.length < cols * 3) return undefined;
  for (let i = 0; i < cols * 3; i += 3) {
    if ((data[i] as number) & COMBINED_CONTENT || (data[i + 2] as number) & EXTENDED_ATTRIBUTES) return undefined;
  }
  return data.subarray(0, cols * 3);
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

export class ScreenModel {
  private readonly term: XtermTerminal;
  private cursorVisible = true;
  private sgrMouse = false;
  /** The last rows read, and what is known to have changed since; see rows(). */
  private drawn: { rows: string[]; cells: (Uint32Array | undefined)[]; viewportY: number; buffer: string; cols: number } | undefined;
  private changedRows: Changed = 'all';
  private readonly tracksChanges: boolean;

  /** A `cols` x `rows` screen keeping `scrollback` lines above it. */
  constructor(cols: number, rows: number, scrollback = 1000) {
    // buffer and parser are "proposed" API in xterm: they must be allowed explicitly.
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    const track = (on: boolean) => (params: (number | number[])[]) => {
      for (const param of params) {
        if (param === 25) this.cursorVisible = on;
        else if (param === 1006) this.sgrMouse = on;
      }
      return false; // xterm still applies the mode itself
    };
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, track(true));
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, track(false));
    // RIS (ESC c) and DECSTR (CSI ! p) show the cursor again; RIS also drops SGR mouse.
    this.term.parser.registerEscHandler({ final: 'c' }, () => {
      this.cursorVisible = true;
      this.sgrMouse = false;
      return false;
    });
    this.term.parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
      this.cursorVisible = true;
      return false;
    });
    this.tracksChanges = this.trackChangedRows();
  }

  /**
   * Follows which rows the output changed, as xterm's renderer does, so that a frame in a
   * flood converts only those rows (all 40 rows of a full screen cost ~2 ms a frame).
   * Returns false where xterm does not offer that: every row is then converted each time.
   */
  private trackChangedRows(): boolean {
    const core = (this.term as unknown as { _core?: { _inputHandler?: RefreshSource } })._core;
    const onRefresh = core?._inputHandler?.onRequestRefreshRows;
    if (typeof onRefresh !== 'function') return false;
    onRefresh.call(core?._inputHandler, (range) => {
      const changed = this.changedRows;
      if (!range || changed === 'all') this.changedRows = 'all';
      else this.changedRows = { start: Math.min(changed.start, range.start), end: Math.max(changed.end, range.end) };
    });
    return true;
  }

  /**
   * Feeds output of the child. xterm parses asynchronously: `callback` runs once this chunk
   * is parsed; `flush()` waits for everything written so far.
   */
  write(data: string | Uint8Array, callback?: () => void): void {
    this.term.write(data, callback);
  }

  /** Resolves once everything written so far has been parsed. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /** Changes the screen size (the app resizes the pty to match). */
  resize(cols: number, rows: number): void {
    this.term.resize(Math.max(1, Math.floor(cols)), Math.max(1, Math.floor(rows)));
  }

  /** The current size in cells. */
  size(): { cols: number; rows: number } {
    return { cols: this.term.cols, rows: this.term.rows };
  }

  /**
   * Calls `listener` with the terminal's answers to the child's queries (device attributes,
   * cursor position reports…): write them to the pty. Returns an unsubscribe.
   */
  onResponse(listener: (data: string) => void): () => void {
    const subscription = this.term.onData(listener);
    return () => subscription.dispose();
  }

  /**
   * Calls `listener` after written output was parsed: at most once per batch of writes
   * (xterm parses in slices of ~12 ms), not once per write. Returns an unsubscribe.
   */
  onParsed(listener: () => void): () => void {
    const subscription = this.term.onWriteParsed(listener);
    return () => subscription.dispose();
  }

  /** Calls `listener` with each window title the child sets (OSC 0 or 2). Returns an unsubscribe. */
  onTitle(listener: (title: string) => void): () => void {
    const subscription = this.term.onTitleChange(listener);
    return () => subscription.dispose();
  }

  /** Calls `listener` when the child rings the bell (BEL): the outer terminal should too. */
  onBell(listener: () => void): () => void {
    const subscription = this.term.onBell(listener);
    return () => subscription.dispose();
  }

  /**
   * The visible rows of the active buffer (the alternate one while a full-screen program
   * runs), one string per row with SGR escapes, trailing blanks trimmed.
   */
  rows(): string[] {
    const buffer = this.term.buffer.active;
    const cell = buffer.getNullCell();
    const drawn = this.drawn;
    const same = this.tracksChanges && drawn && drawn.viewportY === buffer.viewportY && drawn.buffer === buffer.type && drawn.cols === this.term.cols && drawn.rows.length === this.term.rows;
    const changed: Changed = same ? this.changedRows : 'all';
    const out: string[] = same ? [...drawn.rows] : [];
    const cells = same ? drawn.cells : [];
    const start = changed === 'all' ? 0 : changed.start;
    const end = changed === 'all' ? this.term.rows - 1 : Math.min(changed.end, this.term.rows - 1);
    const cols = this.term.cols;
    for (let y = start; y <= end; y += 1) {
      const line = buffer.getLine(buffer.viewportY + y);
      // Rewritten with the same cells (a full-screen redraw): the row drawn before still holds.
      const packed = packedCells(line, cols);
      const before = cells[y];
      if (same && packed && before && sameWords(packed, before)) continue;
      out[y] = sgrRow(line, cols, cell);
      cells[y] = packed?.slice();
    }
    this.drawn = { rows: out, cells, viewportY: buffer.viewportY, buffer: buffer.type, cols };
    this.changedRows = { start: Number.POSITIVE_INFINITY, end: -1 };
    return [...out];
  }

  /** The visible rows as plain text, trailing blanks trimmed (for tests and labels). */
  text(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y += 1) out.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
    return out;
  }

  /** Where the child's cursor is in the viewport, and whether it hid it (`?25l`). */
  cursor(): CursorState {
    const buffer = this.term.buffer.active;
    return {
      // cursorX is `cols` while a wrap is pending: the cursor is drawn on the last column.
      x: Math.min(buffer.cursorX, this.term.cols - 1),
      y: buffer.baseY + buffer.cursorY - buffer.viewportY,
      visible: this.cursorVisible,
    };
  }

  /** The child's terminal modes. */
  modes(): ScreenModes {
    const modes = this.term.modes;
    return {
      applicationCursorKeys: modes.applicationCursorKeysMode,
      bracketedPaste: modes.bracketedPasteMode,
      mouseTracking: modes.mouseTrackingMode,
      sgrMouse: this.sgrMouse,
      alternateScreen: this.term.buffer.active.type === 'alternate',
    };
  }

  /** Frees the emulator. */
  dispose(): void {
    this.term.dispose();
  }
}
