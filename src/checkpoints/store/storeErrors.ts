import fs from 'node:fs';
import path from 'node:path';
import { isUserError, UserError } from '../../shared/errors.js';
import { GitError } from '../git/git.js';

type Trouble = 'permission' | 'read-only' | 'full';

const codes: Record<string, Trouble> = { EACCES: 'permission', EPERM: 'permission', EROFS: 'read-only', ENOSPC: 'full', EDQUOT: 'full' };

/** What kept the store from being written, when the error is about the store (at `root`). */
function troubleOf(error: unknown, root: string): Trouble | undefined {
  if (error instanceof GitError) {
    // A full disk is named without a path by some of git's messages.
    if (/No space left on device|Disk quota exceeded/.test(error.stderr)) return 'full';
    if (!error.stderr.includes(root)) return undefined;
    if (/Read-only file system/.test(error.stderr)) return 'read-only';
    if (/Permission denied|insufficient permission/.test(error.stderr)) return 'permission';
    return undefined;
  }
  const { code, path: file } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === undefined || (file !== undefined && !path.resolve(file).startsWith(root))) return undefined;
  return codes[code];
}

function ownerNote(root: string): string {
  let dir = root;
  for (;;) {
    try {
      const { uid } = fs.statSync(dir);
      return process.getuid && uid !== process.getuid() ? ` (it belongs to user id ${uid}, you are ${process.getuid()})` : '';
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return '';
      dir = parent;
    }
  }
}

/**
 * Git's leftovers from an attempt that ran out of room (temporary objects and packs): the
 * checkpoint was not taken, so nothing refers to them. Run under the project lock.
 */
export function removeFailedObjects(gitDir: string): void {
  const objects = path.join(gitDir, 'objects');
  const clean = (dir: string, prefixes: readonly string[]) => {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) if (prefixes.some((prefix) => name.startsWith(prefix))) fs.rmSync(path.join(dir, name), { force: true });
  };
  clean(objects, ['tmp_obj_']);
  clean(path.join(objects, 'pack'), ['tmp_pack_', 'tmp_idx_', 'tmp_rev_']);
  let fanout: string[] = [];
  try {
    fanout = fs.readdirSync(objects).filter((name) => /^[0-9a-f]{2}$/.test(name));
  } catch {
    // No objects folder.
  }
  for (const dir of fanout) clean(path.join(objects, dir), ['tmp_obj_']);
}

/**
 * A failure to read or write the checkpoint store (at `root`, repo `gitDir`) as one line that says
 * what to do: not writable (another user's, or read-only), or a full disk. Other errors
 * come back as they were.
 */
export function explainStoreError(error: unknown, root: string, gitDir: string): unknown {
  if (isUserError(error)) return error;
  const trouble = troubleOf(error, root);
  if (!trouble) return error;
  const where = `the checkpoint store ${root}`;
  switch (trouble) {
    case 'permission':
      return new UserError(`cannot use ${where}: permission denied${ownerNote(root)}; fix its owner or permissions, or set REWIND_HOME to a folder you own`, { cause: error });
    case 'read-only':
      return new UserError(`cannot use ${where}: its file system is read-only; set REWIND_HOME to a writable folder`, { cause: error });
    case 'full':
      removeFailedObjects(gitDir);
      return new UserError(`cannot use ${where}: the disk is full; free some space (or set REWIND_HOME to another disk) and try again`, { cause: error });
  }
}
