import type { PickerProps } from './picker/types.js';

/** Everything the Ink app draws, produced by the session controller (the UI holds no state). */
export interface AppView {
  columns: number;
  /** Terminal rows; the app draws rows - 1 lines (Ink must never reach the last row). */
  rows: number;
  pane: { rows: string[]; cursor: { x: number; y: number; visible: boolean } };
  status: {
    checkpoints: string;
    checkpointsOff: boolean;
    agent: string;
    keys: string;
    notice?: { text: string; tone: 'info' | 'warning' | 'error' };
  };
  commandBar?: { text: string; error?: string };
  overlay?: OverlayView;
  /** The rewind picker, when open: its data, callbacks and keys. */
  picker?: Omit<PickerProps, 'width' | 'height'>;
}

export type OverlayView = { kind: 'panel'; title: string; lines: string[]; footer?: string };
