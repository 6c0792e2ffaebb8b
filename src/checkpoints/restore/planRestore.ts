import type { Engine } from '../snapshot/engine.js';
import { parseRawDiff, type RawChange } from '../git/diffRaw.js';
import type { CheckpointRecord, SkippedFile } from '../store/record.js';
import { GitError } from '../git/git.js';
import { leaveAloneByDisk } from './diskChecks.js';
import { MissingObjectError, unrestorable } from './errors.js';
import { planFromDiff, plannedPaths, type LeftAlone, type PlannedWrite } from './plan.js';
import { readRestoredMarker } from './restoredMarker.js';
import { withScratch } from './staging.js';
import { ignoredByCheckpoint } from './targetIgnores.js';

/** What restoring a checkpoint does, from the files as they are now: shown first, then applied. */
export interface RestorePreview {
  checkpoint: number;
  /** Paths written (created or replaced whole). */
  writes: PlannedWrite[];
  deletes: string[];
  leftAlone: LeftAlone[];
  /** Planned paths whose current content no checkpoint holds (edited after the newest one):
   * the redo point keeps them. */
  unsaved: string[];
  /** What the target checkpoint left out (too big, heavy): a restore does not touch those. */
  skipped: SkippedFile[];
}

/** The work tree a plan starts from: its tree, and the nested repositories in it. */
export interface PlanStart {
  tree: string;
  nested: readonly string[];
}

/** `-- :(literal)<path>…` limiting a diff to `only` (nothing when empty). */
export function pathspecs(only: readonly string[] | undefined): string[] {
  return only && only.length > 0 ? ['--', ...only.map((file) => `:(literal)${file}`)] : [];
}

/** `git diff-tree -r --raw` from one tree to another (limited to `only`), parsed. */
export async function diffTrees(engine: Engine, from: string, to: string, only?: readonly string[]): Promise<RawChange[]> {
  const result = await engine.repo.treeDiff(['-r', '-z', '--raw', '--no-renames', from, to, ...pathspecs(only)]);
  return parseRawDiff(result.stdout);
}

/**
 * The tree the files were last known to match: the newest checkpoint's, unless a restore
 * (or a redo) has put the files back to another checkpoint since: then that one's. The one
 * rule for "edited after the newest checkpoint", wherever a plan is shown.
 */
export function savedTree(engine: Engine): string | undefined {
  const newest = engine.log.last();
  const restored = readRestoredMarker(engine.store);
  return restored && newest && restored.after === newest.id ? restored.tree : newest?.tree;
}

function ignoredReason(target: CheckpointRecord): string {
  return `ignored by the rules of checkpoint #${target.id}: a checkpoint says nothing about what its rules leave out, so it stays as it is`;
}

function leftOutReason(target: CheckpointRecord): string {
  return `left out of checkpoint #${target.id} (too big or heavy then): it was there, so it stays as it is`;
}

/** Which of `deletes` the target's own rules ignore (rules it can no longer read: it is no longer restorable). */
async function ignoredDeletes(engine: Engine, target: CheckpointRecord, deletes: readonly string[]): Promise<Set<string>> {
  if (deletes.length === 0) return new Set();
  try {
    return await withScratch(engine, (dir) => ignoredByCheckpoint(engine.repo, target.tree, deletes, dir));
  } catch (error) {
    if (error instanceof MissingObjectError || error instanceof GitError) throw unrestorable(target.id, error);
    throw error;
  }
}

/**
 * THE plan of a restore: what restoring `target` over the files as they are now (`start`,
 * with `changes` the tree diff from it to the target) writes, deletes and leaves alone,
 * and why. Restore, `--dry-run`, `rewind diff` and the picker's preview all show this one.
 *
 * Every path that differs is written or deleted, except: anything in a nested repository;
 * a file to delete that the target's own ignore rules ignore (the checkpoint says nothing
 * about it: undoing a restore that removed a `.gitignore` must not delete what it
 * ignores); and what the disk refuses or holds outside every checkpoint (see
 * leaveAloneByDisk). Writes always come from the target, which holds them. For a redo,
 * `undoneCreated` (see createdFiles.ts) are deleted whatever the target's rules say. Reads
 * the disk and the store, changes nothing.
 */
export async function planRestore(engine: Engine, target: CheckpointRecord, start: PlanStart, changes: readonly RawChange[], undoneCreated: ReadonlyMap<string, string> = new Map()): Promise<RestorePreview> {
  const diffPlan = planFromDiff(changes, start.nested);
  const ignored = await ignoredDeletes(engine, target, diffPlan.deletes);
  // A redo: what the restore it undoes created, still as that restore wrote it, goes again.
  const current = new Map(changes.map((change) => [change.path, change.srcOid]));
  for (const [file, oid] of undoneCreated) if (current.get(file) === oid) ignored.delete(file);
  const reason = ignoredReason(target);
  // A file the target left out (too big then) was there all the same: its absence from the
  // target's tree is no reason to delete it.
  const leftOut = new Set(target.skipped.map((file) => file.path));
  const plan = leaveAloneByDisk(engine.project.root, {
    writes: diffPlan.writes,
    deletes: diffPlan.deletes.filter((file) => !ignored.has(file) && !leftOut.has(file)),
    leftAlone: [
      ...diffPlan.leftAlone,
      ...diffPlan.deletes.filter((file) => ignored.has(file)).map((file) => ({ path: file, reason })),
      ...diffPlan.deletes.filter((file) => !ignored.has(file) && leftOut.has(file)).map((file) => ({ path: file, reason: leftOutReason(target) })),
    ],
  });
  const saved = savedTree(engine);
  const touched = new Set(plannedPaths(plan));
  const unsaved = saved && saved !== start.tree && touched.size > 0 ? (await diffTrees(engine, saved, start.tree)).map((change) => change.path).filter((file) => touched.has(file)) : [];
  const skipped = new Map([...target.skipped, ...engine.skippedNow()].map((file) => [file.path, file]));
  return { checkpoint: target.id, writes: plan.writes, deletes: plan.deletes, leftAlone: plan.leftAlone, unsaved, skipped: [...skipped.values()] };
}
