// Checkpoint triggers that more than one layer reads.

/** The checkpoint a revert leaves the files at (its redo point is a restore's, `restore`). */
export const REVERT_TRIGGER = 'revert';
