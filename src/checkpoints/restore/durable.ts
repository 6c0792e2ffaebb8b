// Making what a restore wrote durable: its staged copies before they are renamed into place,
// then the folders whose entries it changed, many syncs side by side on libuv's threads.
import fs from 'node:fs';
import path from 'node:path';
import { folderSyncUnsupported } from './journal.js';

/** At most this many files (or folders) wait open for their sync. */
export const SYNC_BATCH = 64;

/**
 * Syncs and closes these open files (or folders), all at once: the syncs run side by side on
 * libuv's threads, so one journal commit of the file system carries many (one after
 * another, each waits for its own: 12 files took 25-35 ms here, side by side 3-8 ms).
 * Every one is closed, whatever fails; returns the first failure.
 */
async function syncAndClose(fds: readonly number[]): Promise<unknown> {
  const results = await Promise.allSettled(fds.map((fd) => new Promise<void>((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve())))));
  for (const fd of fds) fs.closeSync(fd);
  const failed = results.find((result) => result.status === 'rejected');
  return failed?.reason;
}

/** syncAndClose, throwing its failure. */
export async function syncOrThrow(fds: readonly number[]): Promise<void> {
  const failure = await syncAndClose(fds);
  if (failure !== undefined) throw failure;
}

/**
 * Makes the renames and deletions applyPlan made durable: each folder whose entries it
 * changed (ApplyResult.folders) that still exists is synced. A folder above them that it did
 * not make or remove holds no change (a rename into a folder changes that folder alone).
 * The files written were synced before they were renamed into place (stagedCopies.ts). A folder that
 * cannot be opened or synced (gone, or a file system that refuses) is passed over.
 */
export async function syncFolders(folders: Iterable<string>): Promise<void> {
  const open: number[] = [];
  for (const dir of folders) {
    try {
      open.push(fs.openSync(dir, fs.constants.O_RDONLY));
    } catch {
      // Gone (an emptied folder removed).
    }
    // A folder this file system will not sync is passed over (syncAndClose's failure unread).
    if (open.length >= SYNC_BATCH) await syncAndClose(open.splice(0));
  }
  await syncAndClose(open.splice(0));
}

/**
 * Syncs one folder, failing unless the file system does not sync folders (EINVAL, ENOTSUP):
 * for the journal's name, which must be durable before any file is renamed.
 */
export async function syncFolderOrThrow(dir: string): Promise<void> {
  const failure = await syncAndClose([fs.openSync(dir, fs.constants.O_RDONLY)]);
  if (failure !== undefined && !folderSyncUnsupported.has((failure as NodeJS.ErrnoException).code ?? '')) throw failure;
}

/**
 * Every folder above these files, up to the project's root: what finishing a restore that
 * was cut off syncs besides its own changes (the folders the cut-off run made, and the files
 * it renamed, were never synced).
 */
export function foldersAbove(root: string, files: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    for (let dir = path.dirname(path.join(root, file)); dir.startsWith(root); dir = path.dirname(dir)) {
      if (folders.has(dir)) break;
      folders.add(dir);
      if (dir === root) break;
    }
  }
  return folders;
}
