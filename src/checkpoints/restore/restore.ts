import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import type { Engine } from '../snapshot/engine.js';
import type { RawChange } from '../git/diffRaw.js';
import type { CheckpointRecord, SkippedFile } from '../store/record.js';
import { applyPlan, missingFolders, plannedOnDisk, removeLeftoverFolders } from './apply.js';
import { foldersAbove, syncFolderOrThrow, syncFolders } from './durable.js';
import { stageWrites } from './stagedCopies.js';
import { preparationError, requireAllowedChange } from './errors.js';
import { interruptedJournal, interruptedMessage, leftoversOf, rewriteJournal, writeJournal, type Journal } from './journal.js';
import { requireKnownPaths } from './onlyPaths.js';
import type { LeftAlone } from './plan.js';
import { planRestore, type RestorePreview } from './planRestore.js';
import { changesTo, targetOf } from './preview.js';
import { dropCreated, readCreated, recordCreated } from './createdFiles.js';
import { DisplacedFiles, displacedDir } from './displaced.js';
import { seam } from '../../shared/seams.js';
import { chosenFilesMark } from '../../shared/triggers.js';
import { dropRedoPoint, nextRedoSeq, redoRef, type RedoPoint } from '../store/redoStack.js';
import { finishingStart, takeRedoPoint, type Requester, type Start } from './redoPoint.js';
import { RestoreHelpers } from './restoreHelpers.js';
import { salvageCutOff } from './salvage.js';
import { finishingPoint } from './finishingPoint.js';
import { blobsAt, keepRacedWrites, keepUnchecked, mayDiffer, type RacedWrites } from './writtenMeanwhile.js';
import { dropRestoredMarker, writeRestoredMarker } from './restoredMarker.js';
import { cleanStaleStaging, stagingDirFor } from './staging.js';

export interface RestoreResult {
  checkpoint: number;
  changed: string[];
  deleted: string[];
  leftAlone: LeftAlone[];
  /** The checkpoint holding the files as they were before (what `rewind redo` brings back). */
  redo: number | null;
  /** Files left out of checkpoints (too big, heavy): not touched, whatever they hold. */
  skipped: SkippedFile[];
  /**
   * Set when it changed no file: the files already matched. The checkpoint it took first is
   * taken back (no redo point, no row for nothing), and nothing else it would record is.
   */
  changedNothing?: true;
  /** Files it replaced or deleted that could not be checked for writes made meanwhile (unreadable): kept as they were in `dir`. */
  unchecked?: { dir: string; paths: string[] };
  /**
   * Files something else wrote while the restore ran, after the redo point had read them
   * and before the restore replaced or deleted them: what they held then is this
   * checkpoint (on top of the redo point; `rewind redo` goes back to it when this restore
   * pushed one).
   */
  writtenMeanwhile?: { checkpoint: number; paths: string[] };
}

export interface RestoreOptions extends Requester {
  /** Project-relative paths (files or folders) to restore; everything when empty. */
  only?: readonly string[];
}

/**
 * Restores checkpoint `id`: the files as they are now are checkpointed first (the redo
 * point; taken back if it then changes no file: RestoreResult.changedNothing), the changed
 * files are staged from the store, the journal is written and the redo point pushed on the
 * redo stack, then each file is renamed into place and each deletion made (each kept first:
 * see displaced.ts). Every object needed is read before anything in
 * the project is touched.
 */
export async function restoreCheckpoint(engine: Engine, id: number, options: RestoreOptions = {}): Promise<RestoreResult> {
  return engine.locked('restore', () => restoreLocked(engine, id, options, undefined));
}

/** Progress of a restore: the files staged (from 0), then those deleted (from `from`), of all it changes. */
function progressOf(engine: Engine, preview: RestorePreview, from: number): ((files: number) => void) | undefined {
  const total = preview.writes.length + preview.deletes.length;
  return engine.onProgress && ((files) => engine.onProgress?.({ task: 'restore', done: from + files, total }));
}

/** Restores `id` holding the lock; `redoOf` is the redo point a redo pops. */
export async function restoreLocked(engine: Engine, id: number, options: RestoreOptions, redoOf: RedoPoint | undefined, given?: Start): Promise<RestoreResult> {
  let failed = true;
  try {
    const result = await restoreReported(engine, id, options, redoOf, given);
    failed = false;
    return result;
  } finally {
    engine.onProgress?.({ task: 'restore', done: 0, finished: true, ...(failed ? { failed } : {}) });
  }
}

/**
 * Restores `id` from a redo point the caller took before it worked out the target (a revert:
 * the files now, checkpointed, then merged): pushed on the redo stack like any restore's.
 * Caller holds the lock.
 */
export async function restoreFromRedoPoint(engine: Engine, id: number, options: RestoreOptions, redoPoint: CheckpointRecord): Promise<RestoreResult> {
  const seq = await nextRedoSeq(engine.repo);
  const pushed = { seq, checkpoint: redoPoint.id, restored: id, ref: redoRef(seq, redoPoint.id, id) };
  return restoreLocked(engine, id, options, undefined, { redo: redoPoint.id, base: redoPoint, tree: redoPoint.tree, nested: redoPoint.nested, pushed });
}

async function restoreReported(engine: Engine, id: number, options: RestoreOptions, redoOf: RedoPoint | undefined, given: Start | undefined): Promise<RestoreResult> {
  const cutOff = interruptedJournal(engine.store.journal);
  // What was written into the files it displaced is kept first (its redo point may move).
  const salvage = cutOff ? await salvageCutOff(engine, cutOff) : undefined;
  const interrupted = salvage?.journal;
  const finishing = interrupted !== undefined && interrupted.target === id && interrupted.isRedo === (redoOf !== undefined);
  // With a restore cut off, only finishing it or going back to before it make sense.
  if (interrupted && !finishing && interrupted.redo !== id && cutOff?.redo !== id) {
    throw new UserError(`${interruptedMessage(interrupted)}; do that before restoring anything else`);
  }
  const target = targetOf(engine, id);
  // Finishing keeps to the paths the cut-off restore was limited to, whatever is asked now.
  const only = finishing ? (interrupted.only ?? []) : (options.only ?? []);
  await requireKnownPaths(engine, target, only);
  cleanStaleStaging(engine);

  const helpers = new RestoreHelpers(engine, finishing ? false : given ? given.pushed !== undefined : redoOf === undefined);
  try {
    const start: Start = finishing ? await finishingStart(engine, id, interrupted.redo, helpers) : (given ?? (await takeRedoPoint(engine, target, { ...options, only }, redoOf, helpers)));
    return await restoreFrom(engine, id, { redoOf, target, only, start, tookStart: !finishing && !given, staging: stagingDirFor(engine), helpers, finishing, interrupted, salvage });
  } finally {
    await helpers.end();
  }
}

/** What restoreReported found before it began: the target, where it starts, the cut-off restore it finishes. */
interface Begun {
  redoOf: RedoPoint | undefined;
  target: CheckpointRecord;
  only: readonly string[];
  start: Start;
  /** `start` is a checkpoint this restore took (not a caller's, nor the one finishing takes). */
  tookStart: boolean;
  staging: string;
  helpers: RestoreHelpers;
  /** Finishing the restore that was cut off (`interrupted`). */
  finishing: boolean;
  /** The journal of a restore cut off before, as its salvage left it. */
  interrupted: Journal | undefined;
  salvage: { raced: RacedWrites } | undefined;
}

async function restoreFrom(engine: Engine, id: number, begun: Begun): Promise<RestoreResult> {
  const { redoOf, target, only, start, staging, finishing, interrupted, salvage } = begun;
  const { reader, push: redoPush } = begun.helpers.start();
  let preview: RestorePreview;
  let staged: string[];
  let planned: ReturnType<typeof plannedOnDisk>;
  let changes: RawChange[];
  let written: Journal | undefined;
  try {
    const undoneCreated = redoOf ? readCreated(engine, redoOf) : undefined;
    changes = start.changes ?? (await changesTo(engine, start.tree, target, only));
    preview = await planRestore(engine, target, start, changes, undoneCreated);
    // Finishing one that was cut off ends it, whatever is left that may not change.
    if (!finishing) requireAllowedChange(id, preview);
    planned = plannedOnDisk(engine.project.root, preview);
    const onStaged = progressOf(engine, preview, 0);
    const copies = await stageWrites(reader, preview.writes, staging, (count) => {
      onStaged?.(count);
      seam(`staged:${count}`);
    });
    staged = copies.files;
    const journal: Omit<Journal, 'owner' | 'started'> = {
      target: id,
      redo: start.redo,
      isRedo: redoOf !== undefined,
      staging,
      writes: preview.writes.map((write) => write.path),
      deletes: preview.deletes,
      createdDirs: missingFolders(engine.project.root, preview.writes.map((write) => write.path)),
      ...(only.length > 0 ? { only: [...only] } : {}),
      ...(interrupted ? { earlier: leftoversOf(interrupted) } : {}),
    };
    if (preview.writes.length + preview.deletes.length > 0) {
      written = writeJournal(engine.store.journal, journal);
      seam('journal');
      // Only now, with the journal there: a restore stopped before it changed nothing, and
      // leaves nothing for `rewind redo` to undo. The staged copies' syncs run meanwhile, and
      // the sync of the journal's folder (its name is durable before any file is renamed); a
      // restore cut off before they end stages again (finishing it reads the store anew).
      await allDone([start.pushed && redoPush?.push(start.pushed, start.base.commit), copies.durable, syncFolderOrThrow(path.dirname(engine.store.journal))]);
      seam('redo-ref');
    } else {
      await redoPush?.cancel();
    }
  } catch (error) {
    await redoPush?.cancel();
    // Nothing was restored: the staged copies and the redo point taken for it go too.
    fs.rmSync(staging, { recursive: true, force: true });
    if (written) {
      if (start.pushed) await dropRedoPoint(engine.repo, start.pushed);
      // The journal of a restore cut off before stays what it was: that one is not done.
      // Its folder's sync failing must not hide why this one failed (it is in place once renamed).
      if (interrupted) rewriteJournal(engine.store.journal, interrupted, 'ignore');
      else fs.rmSync(engine.store.journal, { force: true });
    }
    if (!finishing) await engine.dropNewestLocked(start.redo);
    throw preparationError(id, error, staging);
  }
  const changesFiles = preview.writes.length + preview.deletes.length > 0;
  // (One that ends a restore cut off before goes on: that one's journal and folders are cleared below.)
  if (!changesFiles && begun.tookStart && !interrupted) return changedNothing(engine, id, start, preview, staging, redoOf);
  // What it creates is known to its redo point before any file is touched (a cut-off restore's
  // redo then removes those too); once done, only what it did create (see createdFiles.ts).
  // Finishing a cut-off restore: its redo point as its journal names it, even with nothing left to change.
  let point = finishing && interrupted && !interrupted.isRedo ? await finishingPoint(engine, interrupted, id) : changesFiles ? start.pushed : undefined;
  const createdBefore = point ? readCreated(engine, point) : new Map<string, string>();
  const creates = (done?: ReadonlySet<string>) => new Map([...createdBefore, ...preview.writes.filter((write) => write.creates && (!done || done.has(write.path))).map((write) => [write.path, write.oid] as const)]);
  if (point) recordCreated(engine, point, creates());
  const displaced = new DisplacedFiles(displacedDir(staging));
  const applied = applyPlan(engine.project.root, preview, staged, { onDeleted: progressOf(engine, preview, preview.writes.length), planned, displaced });
  // The renames are made durable while the files they displaced are compared (reads only).
  const cutOffFolders = interrupted ? foldersAbove(engine.project.root, [...interrupted.writes, ...interrupted.deletes]) : [];
  const foldersSynced = syncFolders(new Set([...applied.folders, ...cutOffFolders]));
  seam('applied');
  displaced.settle();
  // Whatever was written into a file while the restore ran, after the redo point read it, is
  // in the inode kept of it: saved on top of the redo point, which then moves there.
  const held = blobsAt(changes);
  const differing = await mayDiffer(reader, displaced.kept, held);
  await foldersSynced;
  const label = redoOf ? `written during the undo (back to #${id})` : `written while restoring #${id}${chosenFilesMark(only)}`;
  const move = point && written && !finishing ? { point, journal: written, movedCreated: (moved: RedoPoint) => recordCreated(engine, moved, creates(new Set(applied.changed))) } : undefined;
  const raced = await keepRacedWritesSafely(engine, differing, held, start.base, label, move);
  if (raced.point && point) dropCreated(engine, point);
  point = raced.point ?? point;
  if (point) recordCreated(engine, point, creates(new Set(applied.changed)));
  // A restore cut off before may have made folders, or emptied them, that nothing holds now.
  if (interrupted) removeLeftoverFolders(engine.project.root, leftoversOf(interrupted));
  // The files are exactly the target's tree: every file restored, none left alone or left out
  // (too big now), no write raced it, and the same .gitignore rules (a file they ignored before
  // and not now is on disk, in neither tree).
  const sameRules = !changes.some((change) => path.basename(change.path) === '.gitignore');
  const exact = only.length === 0 && !interrupted && applied.leftAlone.length === 0 && preview.skipped.length === 0 && sameRules && !raced.writtenMeanwhile && !raced.unchecked;
  const rewound = exact && changesFiles ? { rewound: redoOf ? `after the undo (back to #${id})` : `after restoring #${id}` } : {};
  writeRestoredMarker(engine.store, { tree: target.tree, after: engine.log.last()?.id ?? 0, ...rewound });
  fs.rmSync(engine.store.journal, { force: true });
  fs.rmSync(staging, { recursive: true, force: true });
  if (redoOf?.ref) {
    await dropRedoPoint(engine.repo, redoOf);
    dropCreated(engine, redoOf);
  }
  return {
    checkpoint: id,
    changed: applied.changed,
    deleted: applied.deleted,
    leftAlone: applied.leftAlone,
    skipped: preview.skipped,
    redo: changesFiles && !redoOf ? (raced.point?.checkpoint ?? start.redo) : null,
    ...racedOf(raced, salvage?.raced),
  };
}

/**
 * A restore (or undo) that changed no file: the files already matched. The checkpoint it took
 * first is taken back, so it leaves no row and no redo point for nothing, and a restore leaves
 * the restored marker as it was (an edit made since the newest checkpoint stays one). An undo
 * still pops the rewind it undid (the files are as they were before it, put so by hand), and
 * that rewind's marker goes: the files no longer are what it wrote, and were changed since the
 * newest checkpoint.
 */
async function changedNothing(engine: Engine, id: number, start: Start, preview: RestorePreview, staging: string, redoOf: RedoPoint | undefined): Promise<RestoreResult> {
  fs.rmSync(staging, { recursive: true, force: true });
  await engine.dropNewestLocked(start.redo);
  if (redoOf) dropRestoredMarker(engine.store);
  if (redoOf?.ref) {
    await dropRedoPoint(engine.repo, redoOf);
    dropCreated(engine, redoOf);
  }
  return { checkpoint: id, changed: [], deleted: [], leftAlone: preview.leftAlone, skipped: preview.skipped, redo: null, changedNothing: true };
}

/** Waits for all of them (any may be absent), then fails with the first failure: none is left running. */
async function allDone(work: readonly (Promise<void> | undefined | false)[]): Promise<void> {
  const results = await Promise.allSettled(work.map((promise) => promise || undefined));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What to tell of writes that raced this restore, or the one cut off that it finishes or undoes. */
function racedOf(own: RacedWrites, cutOff: RacedWrites | undefined): Pick<RestoreResult, 'writtenMeanwhile' | 'unchecked'> {
  const writtenMeanwhile = own.writtenMeanwhile ?? cutOff?.writtenMeanwhile;
  const unchecked = own.unchecked ?? cutOff?.unchecked;
  return {
    ...(writtenMeanwhile ? { writtenMeanwhile } : {}),
    ...(unchecked ? { unchecked } : {}),
  };
}

/**
 * keepRacedWrites, whatever goes wrong there (the store full, git failing): the restore is
 * done, so it ends as done, and the files it could not check are kept where the user is told.
 */
async function keepRacedWritesSafely(engine: Engine, ...args: Parameters<typeof keepRacedWrites> extends [unknown, ...infer Rest] ? Rest : never): Promise<RacedWrites> {
  try {
    return await keepRacedWrites(engine, ...args);
  } catch {
    const [displaced] = args;
    try {
      const dir = keepUnchecked(engine, displaced);
      return dir ? { unchecked: { dir, paths: displaced.map((file) => file.path) } } : {};
    } catch {
      return {};
    }
  }
}

export { interruptedJournal, interruptedMessage };
