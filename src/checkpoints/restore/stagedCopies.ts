// The restore's staged copies: every blob it writes, read from the store and written
// (exact bytes, mode, symlink) into its staging folder and synced, before any file in the
// project is touched.
import fs from 'node:fs';
import path from 'node:path';
import type { ObjectReader } from '../git/catFile.js';
import { SYNC_BATCH, syncOrThrow } from './durable.js';
import { MissingObjectError } from './errors.js';
import type { PlannedWrite } from './plan.js';

/**
 * Writes one staged copy: the exact bytes, the executable bit, or the symlink. Returns the
 * open file, for stageWrites to sync (undefined for a symlink, whose target is its inode).
 */
function stage(file: string, write: PlannedWrite, data: Buffer): number | undefined {
  if (write.mode === '120000') {
    fs.symlinkSync(data.toString('utf8'), file);
    return undefined;
  }
  // Created with 0666/0777 less the umask, as git checks files out.
  const fd = fs.openSync(file, 'wx', write.mode === '100755' ? 0o777 : 0o666);
  try {
    fs.writeFileSync(fd, data);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** The staged copies, in the plan's order, and their sync. */
export interface StagedCopies {
  files: string[];
  /** Resolves once every copy is durable (rejects with the first failure): await it before any is renamed into place. */
  durable: Promise<void>;
}

/**
 * Reads every blob the plan writes (through `reader`, pipelined) into staged copies; `onStaged`
 * is told each count (progress). The last batch's syncs are still running when it returns,
 * so the caller does its own work beside them (the journal, the redo point's ref).
 */
export async function stageWrites(reader: ObjectReader, writes: readonly PlannedWrite[], staging: string, onStaged?: (files: number) => void): Promise<StagedCopies> {
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  const unsynced: number[] = [];
  try {
    const reads = writes.map((write) => reader.read(write.oid));
    const staged: string[] = [];
    for (const [index, write] of writes.entries()) {
      const object = await reads[index];
      if (!object || 'missing' in object) throw new MissingObjectError(write.oid, write.path);
      const file = path.join(staging, String(index));
      const fd = stage(file, write, object.data);
      if (fd !== undefined) unsynced.push(fd);
      if (unsynced.length >= SYNC_BATCH) await syncOrThrow(unsynced.splice(0));
      staged.push(file);
      onStaged?.(staged.length);
    }
    const durable = syncOrThrow(unsynced.splice(0));
    // Its failure is the caller's to await; a caller that fails first never does.
    durable.catch(() => undefined);
    return { files: staged, durable };
  } finally {
    for (const fd of unsynced) fs.closeSync(fd);
  }
}
