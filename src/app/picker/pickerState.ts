// The picker's state and what its reducer reads besides it (pickerReducer.ts).
import type { ModeState, PickerCheckpoint, PickerChoice, RestoreMode } from './types.js';

/** How the picker ends: the component calls onChoose / onClose with it, once. */
export type PickerOutcome = { type: 'choose'; choice: PickerChoice } | { type: 'close' };

export interface PickerState {
  /** What the user typed to filter the rows. */
  filter: string;
  /** Index of the selected row in the visible (filtered) rows; -1 when none is visible. */
  selected: number;
  /** Index of the first row in view. */
  top: number;
  /** `diff`: the selected step's own diff fills the picker (`d`), scrolled to `diffTop`;
   * `revert`: what reverting that step alone would do (`u`), scrolled the same way. */
  stage: 'list' | 'modes' | 'diff' | 'revert' | 'files';
  /** In the files stage (Tab): the file under the cursor, and the files not ticked (pickFiles.ts). */
  fileCursor?: number;
  /** Counts the `u` presses: each works its plan out afresh. */
  revertRequest?: number;
  unticked?: ReadonlySet<string>;
  /** In the diff and revert stages: the first line in view. */
  diffTop?: number;
  /** In the modes stage: the mode the cursor is on (an index into the three modes). */
  mode: number;
  /** The answer to the last key when it could not do what it asked (e.g. a disabled mode). */
  notice?: string;
  /** Set once the picker is done; later keys are ignored. */
  outcome?: PickerOutcome;
  /** The turns whose steps are shown under them (by checkpoint id). */
  open: ReadonlySet<number>;
  /** A key has moved the selection or typed: new rows no longer choose it anew. */
  moved?: boolean;
  /** The row selected when the filter was started: taking the filter back returns to it. */
  beforeFilter?: number | 'undo';
}

/** What the reducer needs to know besides the state: the component's current props. */
export interface PickerEnv {
  checkpoints: readonly PickerCheckpoint[];
  canUndo: boolean;
  /** The checkpoint the undo row goes back to (PickerProps.undoPoint). */
  undoPoint?: number;
  /** Rows in view: the page size of PgUp/PgDn. */
  listHeight: number;
  modes(id: number): Record<RestoreMode, ModeState>;
  /** Whether `d` shows a step's diff (the session can load one). */
  canDiff?: boolean;
  /** The diff lines loaded for the selected row, and the rows they get (for scrolling). */
  diffLength?: number;
  diffHeight?: number;
  /** The paths the selected row's preview says a restore changes (undefined: not loaded): what Tab picks from. */
  previewFiles?: readonly string[];
  /** In the files stage, once loaded: the files this session's own steps changed since the row's checkpoint (`s` ticks those). */
  sessionFiles?: readonly string[];
  /** Whether `u` shows a step's revert (the session can plan one). */
  canRevert?: boolean;
  /** In the revert stage, once its plan is loaded: how many files conflict (undefined: not
   * loaded, or it cannot be reverted). */
  revertConflicts?: number;
  /** Checkpoints whose restore is known to change no file (their preview said so). */
  unchanged?(id: number): boolean;
}
