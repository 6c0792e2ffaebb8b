import fs from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined, refusedBySystem, refusedCodes } from './diskChecks.js';
import type { DisplacedFiles } from './displaced.js';
import { seam } from '../../shared/seams.js';
import type { LeftoverFolders } from './journal.js';
import type { LeftAlone, RestorePlan } from './plan.js';

export interface ApplyResult {
  changed: string[];
  deleted: string[];
  leftAlone: LeftAlone[];
  /** The folders whose entries it changed (a file renamed in or deleted, a folder made or removed): what syncFolders makes durable. */
  folders: Set<string>;
}

/** Told of each change to the project, with the folder whose entries it changed. */
type OnOp = (folder: string) => void;

/**
 * Makes sure every folder above `file` (inside the project) is a real folder, creating the
 * missing ones (listed in `created`, outermost first). A symlink or a file in the way
 * means writing there could land outside the project or destroy something rewind does
 * not manage: returns the reason.
 */
function prepareParents(root: string, file: string, created: string[], onOp: OnOp): string | undefined {
  const parts = file.split('/').slice(0, -1);
  let current = root;
  for (const part of parts) {
    current = path.join(current, part);
    const stat = lstatOrUndefined(current);
    if (!stat) {
      fs.mkdirSync(current);
      created.push(current);
      onOp(path.dirname(current));
      continue;
    }
    if (stat.isSymbolicLink()) return `${path.relative(root, current)} is a symlink: rewind never writes through one`;
    if (!stat.isDirectory()) return `${path.relative(root, current)} is a file rewind does not manage (ignored or skipped)`;
  }
  return undefined;
}

/**
 * Removes the folders a deletion left empty, up to (not including) the project root. A
 * folder already gone (removed by a restore that was cut off) is climbed past: the one
 * above it may be empty because of it. A folder that is not empty stays, and so does
 * everything above it.
 */
function removeEmptyParents(root: string, file: string, onOp: OnOp): void {
  for (let dir = path.dirname(path.join(root, file)); dir !== root && dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
      onOp(path.dirname(dir));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    }
  }
}

/** The code of an error that is the system refusing a change (reported, not thrown); anything else is thrown. */
function refusal(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (!refusedCodes.has(code)) throw error;
  return code;
}

/** Runs one change to the project; a refusal by the system is reported in `result`, not thrown. */
function attempt(result: ApplyResult, file: string, what: string, change: () => void): boolean {
  try {
    change();
    return true;
  } catch (error) {
    result.leftAlone.push(refusedBySystem(file, refusal(error), `could not ${what}`));
    return false;
  }
}

/** Removes the folders made for a write that did not happen, if nothing else went into them. */
function removeCreated(created: readonly string[], folders: Set<string>): void {
  for (const dir of [...created].reverse()) {
    try {
      fs.rmdirSync(dir);
      folders.add(path.dirname(dir));
    } catch {
      return;
    }
  }
}

/** What a file or symlink on disk is, to tell whether it changed since (undefined: nothing there, or a folder). */
type OnDisk = string | undefined;

function onDisk(full: string): OnDisk {
  const stat = lstatOrUndefined(full);
  if (!stat || stat.isDirectory()) return undefined;
  // Not the ctime: deleting a hard link to the same file, as this restore may, changes it.
  return [stat.dev, stat.ino, stat.mode, stat.size, stat.mtimeMs].join(':');
}

/**
 * The planned paths as they are on disk now (files and symlinks), taken once the plan is
 * made: a path that is something else when its turn comes was written meanwhile (an agent
 * or a build still at work), and what it holds now is in no checkpoint.
 */
export function plannedOnDisk(root: string, plan: RestorePlan): Map<string, OnDisk> {
  const planned = new Map<string, OnDisk>();
  for (const file of [...plan.deletes, ...plan.writes.map((write) => write.path)]) {
    // Through a symlink or a file above it, the path names something else until the restore
    // has made its folders real (or refuses it): nothing to compare there.
    if (!parentsAreReal(root, file)) planned.set(file, onDisk(path.join(root, file)));
  }
  return planned;
}

const changedMeanwhile = 'changed while the restore ran (written by something still at work): what it holds now is in no checkpoint, so it stays as it is; restore again once that is done';

/**
 * Applies a plan whose writes are staged: deletions first (deepest first), then each
 * staged copy renamed over its path. A rename replaces a file atomically, so every file is
 * at any moment either entirely as it was or entirely as restored. Only paths in the plan
 * are touched; what cannot be done safely (the disk changed since the plan, or the system
 * refuses) is left alone and reported, and the rest goes on. Each file replaced or deleted
 * is first kept in `displaced` (its inode, with whatever is written into it meanwhile).
 */
export interface ApplyOptions {
  /** Told the count of files deleted so far (progress). */
  onDeleted?: (files: number) => void;
  /** The planned paths as they were on disk once the plan was made (plannedOnDisk). */
  planned?: ReadonlyMap<string, OnDisk>;
  /** Where each file replaced or deleted is kept first. */
  displaced?: DisplacedFiles;
}

export function applyPlan(root: string, plan: RestorePlan, staged: readonly string[], options: ApplyOptions = {}): ApplyResult {
  const { onDeleted, planned, displaced } = options;
  const result: ApplyResult = { changed: [], deleted: [], leftAlone: [...plan.leftAlone], folders: new Set() };
  // Each change to the project's files is a seam (a crash test kills the process after the k-th).
  const onOp: OnOp = (folder) => {
    result.folders.add(folder);
    seam('op');
  };
  const meanwhile = (file: string) => planned?.has(file) === true && planned.get(file) !== onDisk(path.join(root, file));
  for (const [index, file] of plan.deletes.entries()) {
    const full = path.join(root, file);
    const refusal = parentsAreReal(root, file);
    if (refusal) {
      result.leftAlone.push({ path: file, reason: refusal });
      continue;
    }
    const stat = lstatOrUndefined(full);
    if (!stat) continue;
    // Kept before the check: a write after it still lands in the kept inode.
    const kept = displaced?.keep(full, file, stat, `d${index}`);
    if (meanwhile(file)) {
      displaced?.forget(kept);
      result.leftAlone.push({ path: file, reason: changedMeanwhile });
      continue;
    }
    if (stat.isDirectory()) {
      result.leftAlone.push({ path: file, reason: 'is a folder now, with files rewind does not manage' });
      continue;
    }
    if (!attempt(result, file, 'delete it', () => fs.unlinkSync(full))) {
      displaced?.forget(kept);
      continue;
    }
    onOp(path.dirname(full));
    result.deleted.push(file);
    onDeleted?.(result.deleted.length);
    removeEmptyParents(root, file, onOp);
  }
  plan.writes.forEach((write, index) => {
    const full = path.join(root, write.path);
    const created: string[] = [];
    let blocked: LeftAlone | undefined;
    try {
      const reason = prepareParents(root, write.path, created, onOp);
      if (reason) blocked = { path: write.path, reason };
    } catch (error) {
      blocked = refusedBySystem(write.path, refusal(error), 'could not create its folder');
    }
    if (blocked) {
      removeCreated(created, result.folders);
      result.leftAlone.push(blocked);
      return;
    }
    const existing = lstatOrUndefined(full);
    const kept = existing && displaced?.keep(full, write.path, existing, `w${index}`);
    if (meanwhile(write.path)) {
      displaced?.forget(kept);
      removeCreated(created, result.folders);
      result.leftAlone.push({ path: write.path, reason: changedMeanwhile });
      return;
    }
    if (existing?.isDirectory()) {
      try {
        fs.rmdirSync(full);
        onOp(path.dirname(full));
      } catch {
        result.leftAlone.push({ path: write.path, reason: 'a folder with files rewind does not manage stands there' });
        return;
      }
    }
    if (!attempt(result, write.path, 'write it', () => fs.renameSync(staged[index] ?? '', full))) {
      displaced?.forget(kept);
      return removeCreated(created, result.folders);
    }
    onOp(path.dirname(full));
    result.changed.push(write.path);
  });
  return result;
}

/** The folders above these files that do not exist yet, deepest first. */
export function missingFolders(root: string, files: readonly string[]): string[] {
  const missing = new Set<string>();
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) {
      const dir = parts.slice(0, depth).join('/');
      if (!lstatOrUndefined(path.join(root, dir))) missing.add(dir);
    }
  }
  return [...missing].sort((a, b) => b.split('/').length - a.split('/').length);
}

/**
 * After a restore that was cut off is finished or undone: folders it created and folders
 * its deletions emptied are removed if nothing is in them now (never any other folder).
 */
export function removeLeftoverFolders(root: string, journal: LeftoverFolders): void {
  const noop = () => undefined;
  for (const file of journal.deletes) {
    if (!parentsAreReal(root, file)) removeEmptyParents(root, file, noop);
  }
  for (const dir of journal.createdDirs ?? []) {
    if (parentsAreReal(root, `${dir}/x`)) continue;
    try {
      fs.rmdirSync(path.join(root, dir));
      removeEmptyParents(root, dir, noop);
    } catch {
      // Not empty, or gone: either way it stays as it is.
    }
  }
}

/** A reason not to touch `file` when a folder above it is not a real folder. */
function parentsAreReal(root: string, file: string): string | undefined {
  let current = root;
  for (const part of file.split('/').slice(0, -1)) {
    current = path.join(current, part);
    const stat = lstatOrUndefined(current);
    if (!stat) return undefined;
    if (!stat.isDirectory()) return `${path.relative(root, current)} is not a folder: rewind never deletes through a symlink`;
  }
  return undefined;
}
