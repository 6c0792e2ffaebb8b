// Checkpoint triggers that more than one layer reads.

/** The checkpoint a revert leaves the files at (its redo point is a restore's, `restore`). */
export const REVERT_TRIGGER = 'revert';
/**
 * What a restore of chosen files only (`--only`, the picker's Tab) adds to the labels of the
 * checkpoints it takes (`before restoring #8 (chosen files)`), which the step names read
 * (services/steps/sessionSteps.ts); '' for a restore of every file.
 */
export function chosenFilesMark(only: readonly string[] | undefined): string {
  return only !== undefined && only.length > 0 ? ' (chosen files)' : '';
}
/** The checkpoint of the files as a rewind (a restore of every file, an undo) left them, on top of its redo point. */
export const REWOUND_TRIGGER = 'rewound';
