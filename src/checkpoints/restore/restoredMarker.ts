import fs from 'node:fs';
import path from 'node:path';
import type { Checkpoints } from '../checkpoints.js';
import { writeFileAtomic } from '../atomicFile.js';

/**
 * After a restore the files match the restored checkpoint, not the newest one (the redo
 * point). The marker says so until the next checkpoint is taken, so edits made since are
 * told apart from what the restore wrote.
 */
export interface RestoredMarker {
  tree: string;
  /** The newest checkpoint id when the restore finished. */
  after: number;
}

function file(engine: Checkpoints): string {
  return path.join(engine.store.root, 'restored');
}

export function writeRestoredMarker(engine: Checkpoints, marker: RestoredMarker): void {
  writeFileAtomic(file(engine), JSON.stringify(marker));
}

export function readRestoredMarker(engine: Checkpoints): RestoredMarker | undefined {
  try {
    return JSON.parse(fs.readFileSync(file(engine), 'utf8')) as RestoredMarker;
  } catch {
    return undefined;
  }
}
