import fs from 'node:fs';
import path from 'node:path';
import type { LeftAlone, PlannedWrite, RestorePlan } from './plan.js';

/** lstat, or undefined when nothing is there. */
export function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/** Errors that mean the system refuses a change here: the file is left as it is and reported. */
export const refusedCodes: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EXDEV', 'EBUSY']);

const systemReasons: Record<string, string> = {
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EXDEV: 'it is on another file system than the project (a mount inside it), where no copy can be renamed into place',
  EBUSY: 'it is busy (a mount point?)',
};

/** A path left alone because the system refuses `what` (error `code`). */
export function refusedBySystem(file: string, code: string, what: string): LeftAlone {
  const why = systemReasons[code] ?? 'permission denied';
  return { path: file, reason: `${what} (${why}): left as it is`, refused: code };
}

/** Answers "may this process create and remove entries in that folder?", once per folder. */
class Writability {
  private readonly known = new Map<string, string | undefined>();

  constructor(private readonly root: string) {}

  /** Why `file`, in `folder` (project-relative, '' for the root), cannot change, or undefined. */
  refusal(file: string, folder: string): LeftAlone | undefined {
    if (!this.known.has(folder)) this.known.set(folder, this.check(folder));
    const code = this.known.get(folder);
    const name = folder === '' ? '(the project root)' : folder;
    return code === undefined ? undefined : refusedBySystem(file, code, code === 'EXDEV' ? `the folder ${name} cannot take it` : `the folder ${name} is not writable`);
  }

  /**
   * The error code of writing in `folder`, or undefined when it may be written. A folder on
   * another file system than the project's root (a mount inside it) cannot take a staged
   * copy by rename: the restore stages on the root's.
   */
  private check(folder: string): string | undefined {
    try {
      const full = path.join(this.root, folder);
      fs.accessSync(full, fs.constants.W_OK | fs.constants.X_OK);
      this.rootDevice ??= fs.statSync(this.root).dev;
      return fs.statSync(full).dev === this.rootDevice ? undefined : 'EXDEV';
    } catch (error) {
      return (error as NodeJS.ErrnoException).code ?? 'EACCES';
    }
  }

  private rootDevice: number | undefined;
}

/** What lies at `file`'s folders on disk: a reason not to go through one, or the deepest folder that exists. */
function walkParents(root: string, file: string, goesAway: ReadonlySet<string>): { refusal?: string; existing: string; complete: boolean } {
  const parts = file.split('/').slice(0, -1);
  let existing = '';
  for (let depth = 1; depth <= parts.length; depth++) {
    const folder = parts.slice(0, depth).join('/');
    const stat = lstatOrUndefined(path.join(root, folder));
    if (!stat || goesAway.has(folder)) return { existing, complete: false };
    if (stat.isSymbolicLink()) return { refusal: `${folder} is a symlink: rewind never writes or deletes through one`, existing, complete: false };
    if (!stat.isDirectory()) return { refusal: `${folder} is a file rewind does not manage (ignored or skipped)`, existing, complete: false };
    existing = folder;
  }
  return { existing, complete: true };
}

/**
 * Whether the folder `dir` on disk empties out once `deletes` are made: every file in it
 * is deleted, and every folder in it holds something deleted (only folders that a deletion
 * empties are removed).
 */
function emptiedBy(root: string, dir: string, deletes: ReadonlySet<string>): boolean {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(root, dir));
  } catch {
    return false;
  }
  if (names.length === 0) return true;
  return names.every((name) => {
    const entry = `${dir}/${name}`;
    const stat = lstatOrUndefined(path.join(root, entry));
    if (!stat) return true;
    if (!stat.isDirectory()) return deletes.has(entry);
    return fs.readdirSync(path.join(root, entry)).length > 0 && emptiedBy(root, entry, deletes);
  });
}

/** Why a planned deletion cannot be made, or undefined. */
function deleteRefusal(root: string, file: string, writable: Writability): LeftAlone | undefined {
  const parents = walkParents(root, file, new Set());
  if (parents.refusal) return { path: file, reason: parents.refusal };
  if (!parents.complete) return undefined;
  if (lstatOrUndefined(path.join(root, file))?.isDirectory()) return { path: file, reason: 'is a folder now, with files rewind does not manage' };
  return writable.refusal(file, parents.existing);
}

/** Why a planned write cannot be made, or undefined. `deletes` are the deletions that will be made first. */
function writeRefusal(root: string, write: PlannedWrite, deletes: ReadonlySet<string>, writable: Writability): LeftAlone | undefined {
  const why = (reason: string): LeftAlone => ({ path: write.path, reason });
  const parents = walkParents(root, write.path, deletes);
  if (parents.refusal) return why(parents.refusal);
  const folderRefusal = writable.refusal(write.path, parents.existing);
  if (folderRefusal) return folderRefusal;
  if (!parents.complete) return undefined;
  const stat = lstatOrUndefined(path.join(root, write.path));
  if (!stat) return undefined;
  if (stat.isDirectory()) return emptiedBy(root, write.path, deletes) ? undefined : why('a folder with files rewind does not manage stands there');
  // The checkpoint has it, the files as they are now do not, yet it is on disk as itself:
  // the rules leave it out now (ignored, too big, heavy). No checkpoint holds it: kept.
  if (write.creates) return why('ignored or skipped now (not in any checkpoint): left as it is');
  return undefined;
}

/**
 * Takes out of the plan what the disk would refuse or what must not be touched, each with
 * its reason: a path through a symlink or a file, a folder where a file goes that holds
 * more than the restore deletes, a file the rules leave out now, and any change in a
 * folder this process may not write to (checked before anything is touched, so a restore
 * never stops half-way for lack of permission).
 */
export function leaveAloneByDisk(root: string, plan: RestorePlan): RestorePlan {
  const writable = new Writability(root);
  const leftAlone: LeftAlone[] = [...plan.leftAlone];
  const deletes = plan.deletes.filter((file) => {
    const refusal = deleteRefusal(root, file, writable);
    if (refusal) leftAlone.push(refusal);
    return !refusal;
  });
  const deleted = new Set(deletes);
  const writes = plan.writes.filter((write) => {
    const refusal = writeRefusal(root, write, deleted, writable);
    if (refusal) leftAlone.push(refusal);
    return !refusal;
  });
  return { writes, deletes, leftAlone };
}
