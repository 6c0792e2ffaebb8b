import type { PickerProps } from './picker/types.js';
import type { CursorState } from '../pty/screen.js';

/** The agent's pane as drawn: one SGR string per row, and the cursor. */
export interface PaneFrame {
  rows: readonly string[];
  cursor: CursorState;
}

/** Everything the Ink app draws, produced by the session controller (the UI holds no state). */
export interface AppView {
  columns: number;
  /** Terminal rows: the pane takes all but the last, the status line the last. */
  rows: number;
  /** The pane's rows, only while an overlay covers part of it (Ink draws the pane then;
   * otherwise the screen writer draws it straight from the session's pane frames). */
  pane?: PaneFrame;
  status: {
    checkpoints: string;
    checkpointsOff: boolean;
    /** A checkpoint trigger that is off while it is (`watcher off`), shown as a warning. */
    off?: string;
    agent: string;
    /** Lines the pane is scrolled back from the live screen (absent: live). */
    scrolledBack?: number;
    keys: string;
    notice?: { text: string; tone: 'info' | 'warning' | 'error' };
  };
  /** The command bar while open: the typed text, the error of its last Enter, the commands it matches. */
  commandBar?: { text: string; error?: string; hint?: string };
  overlay?: OverlayView;
  /** NO_COLOR is set: Rewind's own rows keep their attributes, not their colours. */
  noColor?: boolean;
  /** The rewind picker, when open: its data, callbacks and keys. */
  picker?: Omit<PickerProps, 'width' | 'height'>;
  /** Which opening of the picker that is: one opened again is drawn afresh (its previews its own). */
  pickerOpened?: number;
}

/** A panel over the pane; `top`: the first of its wrapped lines shown (↑↓ PgUp PgDn Home End scroll it). */
export type OverlayView = { kind: 'panel'; title: string; lines: string[]; footer?: string; top?: number };
