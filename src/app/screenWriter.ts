import { decset } from '../pty/terminalModes.js';
import { EventEmitter } from 'node:events';
import type { AppView, PaneFrame } from './view.js';
import { bottomRow } from './bottomLine.js';
import { paneHeightOf } from './paneSize.js';

/** What the agent's pane shows: one SGR string per row, and the child's cursor. */

/** Who draws the rows above the status line. */
export interface ScreenLayout {
  columns: number;
  rows: number;
  /** Rows of the agent's pane, from the top. */
  paneHeight: number;
  /** The pane is drawn from its frames; false while an overlay or the picker covers it (Ink's frame then). */
  paneDirect: boolean;
  /** Where the real cursor goes while the pane is direct (hidden while a command bar is open). */
  cursorInPane: boolean;
  /** The last row: the status line or the command bar (SGR). */
  bottom: string;
}

/** Who draws where, for a view of the session. */
export function layoutOf(view: AppView): ScreenLayout {
  return {
    columns: view.columns,
    rows: view.rows,
    paneHeight: paneHeightOf(view.rows),
    paneDirect: !view.overlay && !view.picker,
    cursorInPane: !view.commandBar,
    bottom: bottomRow(view),
  };
}

const beginSync = decset(2026, true);
const endSync = decset(2026, false);

/**
 * What the app draws on the terminal (only terminal modes and the final restore are
 * written elsewhere). The agent's pane is drawn straight
 * from its frames (Ink's frame, rendered off-screen, only while an overlay covers it) and
 * the bottom row from the layout, so a flood of agent output never re-renders React. Only
 * the rows that changed since the last write are written, cursor-addressed, each write one
 * synchronized update.
 */
export class ScreenWriter {
  private drawn: (string | undefined)[] = [];
  private inkLines: string[] = [];
  private pane: PaneFrame = { rows: [], cursor: { x: 0, y: 0, visible: false } };
  private cursorShown: boolean | undefined;
  private cursorAt = '';
  private layout: ScreenLayout;
  private stopped = false;

  /** Starts on a clear screen of `layout`'s size. */
  constructor(
    private readonly write: (data: string) => void,
    layout: ScreenLayout,
  ) {
    this.layout = layout;
    this.drawn = new Array<string>(layout.rows).fill('');
  }

  /** A new pane frame from the session. */
  paneFrame(frame: PaneFrame): void {
    this.pane = frame;
    if (this.layout.paneDirect) this.flush();
  }

  /** The session's view changed who draws where (an overlay opened, the size changed). */
  setLayout(layout: ScreenLayout): void {
    const resized = layout.columns !== this.layout.columns || layout.rows !== this.layout.rows;
    const same =
      !resized && layout.paneHeight === this.layout.paneHeight && layout.paneDirect === this.layout.paneDirect && layout.cursorInPane === this.layout.cursorInPane && layout.bottom === this.layout.bottom;
    this.layout = layout;
    if (same) return;
    if (resized) {
      // The terminal may have reflowed what was there: start from a clear screen.
      this.drawn = [];
      if (!this.stopped) this.write('\x1b[0m\x1b[2J');
    }
    this.flush();
  }

  /** A frame rendered by Ink: the pane's rows while an overlay or the picker covers it. */
  inkFrame(output: string): void {
    this.inkLines = output.split('\n');
    this.flush();
  }

  /** Draws nothing more (the terminal is being given back). */
  stop(): void {
    this.stopped = true;
  }

  /** What each row should show now. */
  private wanted(): string[] {
    const { rows, paneHeight, paneDirect, bottom } = this.layout;
    // Until Ink's frame for an overlay that just opened arrives, the pane stays as it is.
    const ink = this.inkLines.length === paneHeight ? this.inkLines : undefined;
    const lines: string[] = [];
    for (let y = 0; y < paneHeight; y++) lines.push((paneDirect ? this.pane.rows[y] : ink ? ink[y] : this.drawn[y]) ?? '');
    for (let y = paneHeight; y < rows; y++) lines.push(y === rows - 1 ? bottom : '');
    return lines;
  }

  private flush(): void {
    if (this.stopped) return;
    const wanted = this.wanted();
    let out = '';
    for (let y = 0; y < wanted.length; y++) {
      const line = wanted[y] ?? '';
      if (this.drawn[y] === line) continue;
      this.drawn[y] = line;
      // Erase first: a line as wide as the terminal leaves the cursor in its last column,
      // where erasing after it would take the last character.
      out += `\x1b[${y + 1};1H\x1b[0m\x1b[2K${line}\x1b[0m`;
    }
    this.drawn.length = wanted.length;
    const { cursor } = this.pane;
    // The cursor goes where the child put it even while hidden: input-method popups and
    // screen readers follow it there. Left anywhere else it would sit after the last row
    // written (the status row).
    const inPane = this.layout.paneDirect && this.layout.cursorInPane && cursor.y >= 0 && cursor.y < this.layout.paneHeight;
    const show = inPane && cursor.visible;
    const at = inPane ? `\x1b[${cursor.y + 1};${cursor.x + 1}H` : '';
    if (inPane && (out !== '' || at !== this.cursorAt)) out += at;
    this.cursorAt = at;
    if (show !== this.cursorShown) out += decset(25, show);
    this.cursorShown = show;
    if (out !== '') this.write(beginSync + out + endSync);
  }
}

/**
 * The stdout Ink renders to (in debug mode, a whole frame per write): it hands each frame
 * to the writer and tells Ink the terminal's size.
 */
export class InkFrameSink extends EventEmitter {
  readonly isTTY = true;

  constructor(
    private readonly writer: ScreenWriter,
    public columns: number,
    public rows: number,
  ) {
    super();
  }

  write(data: string): boolean {
    this.writer.inkFrame(data);
    return true;
  }

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}
