// What `rewind export` carries of each checkpoint besides its files, and what `rewind import`
// reads back (tools/exportBundle.ts, tools/importBundle.ts).
import type { CheckpointRecord } from '../store/record.js';

/** Where a checkpoint was first taken: the key that keeps an import from adding it twice. */
export interface CheckpointOrigin {
  /** The project's folder name there. */
  from: string;
  /** Its id there. */
  id: number;
  /** Its commit in that store. */
  commit: string;
}

/**
 * One checkpoint as an export holds it: its list entry, `commit` being its commit in the
 * export's bundle (the range's own chain, see exportBundle.ts), and where it came from.
 */
export type TransferredCheckpoint = Omit<CheckpointRecord, 'imported' | 'unrestorable' | 'lost' | 'fromChangedPaths'> & { origin: CheckpointOrigin };

/** What an export made: the bundle's bytes and the entries of its checkpoints, oldest first. */
export interface ExportedCheckpoints {
  bundle: Buffer;
  checkpoints: TransferredCheckpoint[];
}

/** What an import did. */
export interface ImportResult {
  /** The checkpoints it added, with their ids in this project. */
  added: CheckpointRecord[];
  /** How many of the file's checkpoints this project had already. */
  already: number;
}

/** The key of a checkpoint's origin: the same for it in every store it reaches. */
export function originKey(origin: Pick<CheckpointOrigin, 'id' | 'commit'>): string {
  return `${origin.id} ${origin.commit}`;
}
