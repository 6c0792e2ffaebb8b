// Checkpoint triggers that more than one layer reads.

/** The checkpoint a revert leaves the files at (its redo point is a restore's, `restore`). */
export const REVERT_TRIGGER = 'revert';
/** The checkpoint of the files as a rewind (a restore of every file, an undo) left them, on top of its redo point. */
export const REWOUND_TRIGGER = 'rewound';
