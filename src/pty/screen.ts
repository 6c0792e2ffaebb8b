// @xterm/headless is CommonJS with a broken `module` field: its named ESM import
// type-checks but fails at run time. Take Terminal from the default export.
import xtermHeadless from '@xterm/headless';
import type { IBufferCell, IBufferLine, IDisposable, IMarker, Terminal as XtermTerminal } from '@xterm/headless';
import { useCurrentWidths } from './cellWidth.js';
import { normalScreenText } from './normalScreen.js';
import { sgrRow } from './sgrRow.js';
import type { TerminalColours } from './terminalColours.js';
import { PaneColours } from './paneColours.js';
import { isClipboardCopy } from './terminalModes.js';
import { clearForColumnMode } from './columnMode.js';
import type { InputModes } from './terminalModes.js';
import { PaneKeyboard, type OuterKeyboard } from './paneKeyboard.js';

export type { OuterKeyboard } from './paneKeyboard.js';

const { Terminal } = xtermHeadless;

/** The child's cursor, in viewport cells from the top-left (0-based). */
export interface CursorState {
  x: number;
  y: number;
  visible: boolean;
}

/** The line the cursor is on (see ScreenModel.cursorLine). */
export interface CursorLine {
  text: string;
  beforeCursor: string;
  whole: boolean;
}

/** The child's terminal modes: those to mirror outside, and whether it is full-screen. */
export interface ScreenModes extends InputModes {
  /** The alternate screen (`?1049h`, `?47h`) is active: vim, less, most TUIs. */
  alternateScreen: boolean;
}

/** Flags in xterm's packed cells: content kept beside the cell (combining marks), extended attributes (underline styles and colours). */
const COMBINED_CONTENT = 0x200000;
const EXTENDED_ATTRIBUTES = 0x10000000;

/**
 * A row's cells as xterm packs them (3 words a cell: content and width, foreground, background),
 * when they say everything the row draws (no cell keeps anything beside them); otherwise
 * undefined. Internal to xterm (version pinned): where it is missing, every row is
 * converted each time, slower but still right.
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

function unsubscribeOf(subscription: IDisposable): () => void {
  return () => subscription.dispose();
}

/** Lines the emulator keeps above a screen of `rows`: the user's, or three screens for reflow if that is more. */
const keptFor = (scrollback: number, rows: number) => Math.max(scrollback, rows * 3);

/**
 * The child's screen, emulated by @xterm/headless: feed it the pty's output, read back
 * rows to draw. The only user of @xterm/headless.
 */
export class ScreenModel {
  private readonly term: XtermTerminal;
  private cursorVisible = true;
  private sgrMouse = false;
  /** The child allowed 80/132-column switching (`?40h`): DECCOLM then clears the screen (see columnMode.ts). */
  private columnSwitch = false;
  /** How many synchronized updates (`?2026h`) the child began: a number for the one in progress. */
  private synchronizedUpdates = 0;
  /** Each row last read, with the packed cells it was converted from; see rows(). */
  private drawn: { row: string; cells: Uint32Array | undefined }[] = [];
  /** The pane's answers to colour queries (see paneColours.ts). */
  private readonly colours: PaneColours;
  /** The kitty keyboard flags and modifyOtherKeys the child set, and its keyboard questions answered (see paneKeyboard.ts). */
  private readonly keyboard: PaneKeyboard;
  /** The line above the normal screen when it was last cleared (ED 2 or 3); see lastWords(). */
  private clearedAt: IMarker | undefined;

  /**
   * A `cols` x `rows` screen keeping `scrollback` lines above it for the user to scroll back
   * to. The emulator keeps a few screens more whatever that is: a resize narrower then wider
   * reflows lines back from above the screen, as a terminal does (with none kept, an inline
   * agent's last row would be left mid-screen).
   */
  constructor(
    cols: number,
    rows: number,
    private readonly scrollback = 1000,
  ) {
    // buffer and parser are "proposed" API in xterm: they must be allowed explicitly. xterm's
    // own log goes to the console, which is the user's screen: a DEL the child prints (vttest's
    // character set tables do) wrote "xterm.js: Parsing error: {…}" across the pane. Off.
    // The title stack (XTWINOPS 22/23) as xterm keeps it: a title popped is set again, and so reaches the outer terminal.
    this.term = new Terminal({ cols, rows, scrollback: keptFor(scrollback, rows), allowProposedApi: true, logLevel: 'off', windowOptions: { pushTitle: true, popTitle: true } });
    // The agents lay out ✅, 🙂 and CJK as two columns, as terminals do (xterm starts on Unicode 6).
    useCurrentWidths(this.term);
    const track = (on: boolean) => (params: (number | number[])[]) => {
      for (const param of params) {
        if (param === 25) this.cursorVisible = on;
        else if (param === 1006) this.sgrMouse = on;
        else if (param === 40) this.columnSwitch = on;
        else if (param === 3 && this.columnSwitch) {
          this.noteCleared();
          clearForColumnMode(this.term);
        }
        // Runs before xterm sets the mode: a `?2026h` while one is in progress begins no new update.
        else if (param === 2026 && on && !this.term.modes.synchronizedOutputMode) this.synchronizedUpdates += 1;
        // Entering the alternate screen: the normal one is live again when it comes back.
        else if (on && (param === 1049 || param === 1047 || param === 47)) this.scrollToLive();
      }
      return false; // xterm still applies the mode itself
    };
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, track(true));
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, track(false));
    this.term.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 2 || params[0] === 3) this.noteCleared();
      return false;
    });
    this.keyboard = new PaneKeyboard(this.term);
    // RIS (ESC c) and DECSTR (CSI ! p) show the cursor again; RIS also drops SGR mouse and the keyboard modes.
    this.term.parser.registerEscHandler({ final: 'c' }, () => {
      this.cursorVisible = true;
      this.sgrMouse = false;
      this.keyboard.modes.reset();
      this.columnSwitch = false;
      this.clearedAt?.dispose();
      this.clearedAt = undefined;
      return false;
    });
    this.term.parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
      this.cursorVisible = true;
      return false;
    });
    this.colours = new PaneColours(this.term);
  }

  /** What the outer terminal told of its keyboard and name: the pane answers the child's `CSI ? u` and XTVERSION so from now on. */
  setOuterKeyboard(outer: OuterKeyboard): void {
    this.keyboard.setOuter(outer);
  }

  /** The normal screen is about to be erased whole: what follows on it starts below the line above it (see lastWords()). */
  private noteCleared(): void {
    const buffer = this.term.buffer.active;
    if (buffer.type !== 'normal') return;
    this.clearedAt?.dispose();
    // xterm erases the screen in place (nothing scrolls), and drops the markers of the rows
    // it erases: mark the line above the screen, if any; what follows starts below it.
    this.clearedAt = buffer.baseY > 0 ? this.term.registerMarker(-buffer.cursorY - 1) : undefined;
  }

  /** The colours to report when the child asks (OSC 4, 10, 11, 12): the outer terminal's, where known. */
  setColours(colours: TerminalColours): void {
    this.colours.set(colours);
  }

  /**
   * Feeds output of the child. xterm parses asynchronously: `callback` runs once this chunk
   * is parsed; `flush()` waits for everything written so far.
   */
  write(data: string | Uint8Array, callback?: () => void): void {
    this.colours.scan(data);
    this.term.write(data, callback);
  }

  /** Resolves once everything written so far has been parsed. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /** Changes the screen size (the app resizes the pty to match). */
  resize(cols: number, rows: number): void {
    const height = Math.max(1, Math.floor(rows));
    if (this.term.options.scrollback !== keptFor(this.scrollback, height)) this.term.options.scrollback = keptFor(this.scrollback, height);
    this.term.resize(Math.max(1, Math.floor(cols)), height);
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
    return unsubscribeOf(this.term.onData(listener));
  }

  /**
   * Calls `listener` after written output was parsed: at most once per batch of writes
   * (xterm parses in slices of ~12 ms), not once per write. Returns an unsubscribe.
   */
  onParsed(listener: () => void): () => void {
    return unsubscribeOf(this.term.onWriteParsed(listener));
  }

  /** Calls `listener` with each window title the child sets (OSC 0 or 2). Returns an unsubscribe. */
  onTitle(listener: (title: string) => void): () => void {
    return unsubscribeOf(this.term.onTitleChange(listener));
  }

  /**
   * Calls `listener` with each copy to the clipboard the child asks of its terminal (OSC 52:
   * `<selections>;<base64 text>`); a request to read the clipboard (`?`) is not passed on.
   * Returns an unsubscribe.
   */
  onClipboard(listener: (data: string) => void): () => void {
    const subscription = this.term.parser.registerOscHandler(52, (data) => {
      if (isClipboardCopy(data)) listener(data);
      return true;
    });
    return unsubscribeOf(subscription);
  }

  /** Calls `listener` when the child rings the bell (BEL): the outer terminal should too. */
  onBell(listener: () => void): () => void {
    return unsubscribeOf(this.term.onBell(listener));
  }

  /**
   * The visible rows of the active buffer (the alternate one while a full-screen program
   * runs), one string per row with SGR escapes, trailing blanks trimmed.
   */
  rows(): string[] {
    const buffer = this.term.buffer.active;
    const cell = buffer.getNullCell();
    const cols = this.term.cols;
    const drawn: { row: string; cells: Uint32Array | undefined }[] = [];
    for (let y = 0; y < this.term.rows; y += 1) {
      const line = buffer.getLine(buffer.viewportY + y);
      // The same cells as last time (a full-screen redraw of the same screen): the same row.
      const cells = packedCells(line, cols);
      const before = this.drawn[y];
      drawn.push(cells && before?.cells && sameWords(cells, before.cells) ? before : { row: sgrRow(line, cols, cell, this.linkOf), cells: cells?.slice() });
    }
    this.drawn = drawn;
    return drawn.map((row) => row.row);
  }

  /**
   * The hyperlink (OSC 8) a cell is part of, as `params;uri`, if any. Internal to xterm
   * (version pinned): a cell's link id and xterm's table of links; where either is missing,
   * rows are drawn without links.
   */
  private readonly linkOf = (cell: IBufferCell): string | undefined => {
    // A cell's `extended` is left from an earlier cell unless its background word says it has its own.
    const internal = cell as unknown as { bg?: number; extended?: { urlId?: unknown } };
    if (typeof internal.bg !== 'number' || (internal.bg & EXTENDED_ATTRIBUTES) === 0) return undefined;
    const id = internal.extended?.urlId;
    if (typeof id !== 'number' || id === 0) return undefined;
    const links = (this.term as unknown as { _core?: { _oscLinkService?: { getLinkData?: (id: number) => { id?: string; uri?: string } | undefined } } })._core?._oscLinkService;
    const data = links?.getLinkData?.(id);
    if (typeof data?.uri !== 'string') return undefined;
    return `${data.id === undefined ? '' : `id=${data.id}`};${data.uri}`;
  };

  /** The visible rows as plain text, trailing blanks trimmed (for tests and labels). */
  text(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y += 1) out.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd());
    return out;
  }

  /**
   * The line the cursor is on as plain text: its row and the rows it wrapped onto (a line
   * longer than the screen is wide), with `beforeCursor`, its part left of the cursor.
   * `whole` is false when its start has scrolled off the top.
   */
  cursorLine(): CursorLine {
    const buffer = this.term.buffer.active;
    const cursorRow = buffer.baseY + buffer.cursorY;
    let first = cursorRow;
    while (first > 0 && buffer.getLine(first)?.isWrapped === true) first -= 1;
    let last = cursorRow;
    // Bounded by the buffer's length: past it, getLine wraps around to the first lines.
    while (last + 1 < buffer.length && buffer.getLine(last + 1)?.isWrapped === true) last += 1;
    const rowText = (y: number, end?: number) => buffer.getLine(y)?.translateToString(false, 0, end) ?? '';
    let text = '';
    let beforeCursor = '';
    for (let y = first; y <= last; y += 1) {
      text += rowText(y);
      if (y < cursorRow) beforeCursor += rowText(y);
      else if (y === cursorRow) beforeCursor += rowText(y, Math.min(buffer.cursorX, this.term.cols));
    }
    return { text: text.trimEnd(), beforeCursor, whole: buffer.getLine(first)?.isWrapped !== true };
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

  /**
   * The synchronized update (DEC mode 2026, `?2026h` … `?2026l`) the child is in the middle
   * of, as a number telling one update from the next; undefined when it is in none. Its
   * screen is then half drawn: a frame should wait for the update's end. xterm itself
   * answers DECRQM for the mode (`CSI ? 2026 $ p`) and drops it on a reset.
   */
  synchronizedUpdate(): number | undefined {
    return this.term.modes.synchronizedOutputMode ? this.synchronizedUpdates : undefined;
  }

  /** The child's terminal modes. */
  modes(): ScreenModes {
    const modes = this.term.modes;
    return {
      applicationCursorKeys: modes.applicationCursorKeysMode,
      bracketedPaste: modes.bracketedPasteMode,
      mouseTracking: modes.mouseTrackingMode,
      sgrMouse: this.sgrMouse,
      focusEvents: modes.sendFocusMode,
      ...this.keyboard.current(),
      alternateScreen: this.term.buffer.active.type === 'alternate',
    };
  }

  // ---- scrollback ---------------------------------------------------------------------

  /** How many lines the view is scrolled back from the live screen (0: live; always 0 on the alternate screen). */
  scrolledBack(): number {
    const buffer = this.term.buffer.active;
    return buffer.type === 'normal' ? buffer.baseY - buffer.viewportY : 0;
  }

  /** Whether there are lines above the live normal screen to scroll back to. */
  hasScrollback(): boolean {
    const buffer = this.term.buffer.active;
    return buffer.type === 'normal' && buffer.baseY > 0 && this.scrollback > 0;
  }

  /**
   * Scrolls the view of the normal screen by `lines` (negative: back into the scrollback),
   * within the scrollback; new output keeps a view scrolled back where it is. Nothing on the
   * alternate screen (it has no scrollback). Returns whether the view moved.
   */
  scroll(lines: number): boolean {
    const before = this.scrolledBack();
    const target = Math.min(Math.max(this.scrollback, before), Math.max(0, before - Math.trunc(lines)));
    if (this.term.buffer.active.type === 'normal' && target !== before) this.term.scrollLines(before - target);
    return this.scrolledBack() !== before;
  }

  /** Back to the live screen. Returns whether the view moved. */
  scrollToLive(): boolean {
    const before = this.scrolledBack();
    if (before !== 0) this.term.scrollToBottom();
    return before !== 0;
  }

  /**
   * The agent's last words: what a terminal would show of the normal screen now, from its
   * last clear (or the oldest line kept) to the cursor or the last line drawn, as bytes that
   * draw it again at the cursor of the user's terminal (see normalScreenText). Call flush() first.
   */
  lastWords(): string {
    const buffer = this.term.buffer.normal;
    // A marker gone with its line (scrollback full, or cleared): every line kept is after it.
    // Not the lines kept only for reflow: as many as the user keeps.
    const from = Math.max(this.clearedAt && !this.clearedAt.isDisposed ? this.clearedAt.line + 1 : 0, buffer.baseY - this.scrollback);
    return normalScreenText(buffer, this.term.cols, from, buffer.getNullCell());
  }

  /** Frees the emulator. */
  dispose(): void {
    this.term.dispose();
  }
}
