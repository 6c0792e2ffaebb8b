import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { GitError } from '../git/git.js';
import type { RestorePlan } from './plan.js';

/** A blob the plan needs is not in the store (the project's gc pruned what it borrowed). */
export class MissingObjectError extends Error {
  constructor(oid: string, file: string) {
    super(`object ${oid} for ${file} is missing`);
    this.name = 'MissingObjectError';
  }
}

/** The checkpoint's objects are gone (the project's own gc pruned what it borrowed). */
/** A checkpoint already known to be unrestorable, with the reason its record gives. */
export function knownUnrestorable(record: { id: number; lost?: string }): UserError {
  if (record.lost === undefined) return unrestorable(record.id);
  return new UserError(`checkpoint #${record.id} is no longer restorable: ${record.lost}; nothing was changed`);
}

export function unrestorable(id: number, cause?: unknown): UserError {
  return new UserError(`checkpoint #${id} is no longer restorable: files it needs are gone from the store (the project's own \`git gc\` pruned objects it borrowed); nothing was changed`, { cause });
}

/**
 * A restore that failed while getting ready (reading its objects, staging copies, writing
 * its journal), before any file was touched, said as what to do. Only objects that are
 * truly missing mean the checkpoint is gone; a full disk or a folder that may not be
 * written is said as such. `staging` is where the copies were being staged.
 */
export function preparationError(id: number, error: unknown, staging: string): Error {
  if (error instanceof UserError) return error;
  if (error instanceof MissingObjectError || error instanceof GitError) return unrestorable(id, error);
  const { code, path: file } = error as NodeJS.ErrnoException;
  const where = file ? path.dirname(file) : path.dirname(staging);
  const unchanged = 'nothing was changed';
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    const full = code === 'EDQUOT' ? 'the disk quota is used up' : 'the disk is full';
    return new UserError(`cannot restore checkpoint #${id}: ${full} where its files are staged (${where}); free some space there and run it again; ${unchanged}`, { cause: error });
  }
  if (code === 'EROFS') return new UserError(`cannot restore checkpoint #${id}: ${where} is on a read-only file system; ${unchanged}`, { cause: error });
  if (code === 'EACCES' || code === 'EPERM') {
    return new UserError(`cannot restore checkpoint #${id}: no permission to write in ${where}; give yourself write access there (or run rewind as its owner) and run it again; ${unchanged}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * A restore whose every change the system refuses (a project the user may not write, a
 * read-only file system) is a failure, not a restore that changed nothing: one line.
 */
export function requireAllowedChange(id: number, plan: RestorePlan): void {
  if (plan.writes.length + plan.deletes.length > 0) return;
  const refused = plan.leftAlone.find((item) => item.refused !== undefined);
  if (!refused) return;
  const cause = `${refused.path}: ${refused.reason.replace(/: left as it is$/, '')}`;
  if (refused.refused === 'EROFS') {
    throw new UserError(`cannot restore checkpoint #${id}: the project is on a read-only file system (${cause}); make it writable and run it again; nothing was changed`);
  }
  if (refused.refused === 'EXDEV' || refused.refused === 'EBUSY') {
    throw new UserError(`cannot restore checkpoint #${id}: every file it would change is on a mount inside the project (${cause}); copy them back from \`rewind show\` or \`rewind fork ${id}\`; nothing was changed`);
  }
  throw new UserError(`cannot restore checkpoint #${id}: you may not change any of the files it would change (${cause}); give yourself write access there (or run rewind as their owner) and run it again; nothing was changed`);
}
