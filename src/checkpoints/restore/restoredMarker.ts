import fs from 'node:fs';
import type { StorePaths } from '../store/store.js';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/**
 * After a restore the files match the restored checkpoint, not the newest one (the redo
 * point). The marker says so until the next checkpoint is taken, so edits made since are
 * told apart from what the restore wrote.
 */
export interface RestoredMarker {
  tree: string;
  /** The newest checkpoint id when the restore finished. */
  after: number;
  /**
   * Set when the files are exactly `tree` (restore.ts says when): the label of the checkpoint
   * that may record them (rewound.ts).
   */
  rewound?: string;
}

/**
 * Not synced: after a power cut it is this one, the one before or empty, and only this one
 * names the newest checkpoint (`after`), so a lost marker is no marker, which costs no file:
 * the restored files then count as changed since the redo point, and the next step's
 * checkpoint holds them anyway.
 */
export function writeRestoredMarker(store: StorePaths, marker: RestoredMarker): void {
  writeFileAtomic(store.restored, JSON.stringify(marker), 0o600, false);
}

/** Removes the marker: the files are no longer known to be what a restore wrote. */
export function dropRestoredMarker(store: StorePaths): void {
  fs.rmSync(store.restored, { force: true });
}

/** Removes the marker if it names checkpoint `id` (taken back: its id goes to the next one). */
export function dropRestoredMarkerOf(store: StorePaths, id: number): void {
  if (readRestoredMarker(store)?.after === id) dropRestoredMarker(store);
}

export function readRestoredMarker(store: StorePaths): RestoredMarker | undefined {
  try {
    return JSON.parse(fs.readFileSync(store.restored, 'utf8')) as RestoredMarker;
  } catch {
    return undefined;
  }
}
