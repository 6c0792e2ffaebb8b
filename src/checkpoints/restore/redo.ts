import { UserError } from '../../shared/errors.js';
import type { Engine } from '../snapshot/engine.js';
import type { CheckpointRecord } from '../store/record.js';
import { interruptedJournal } from './journal.js';
import { readRedoStack, type RedoPoint } from '../store/redoStack.js';
import { readCreated } from './createdFiles.js';
import type { RestorePreview } from './planRestore.js';
import { plannedPaths } from './plan.js';
import { changesTo, planChecked, planNow } from './preview.js';
import type { CurrentTree } from '../snapshot/engineTypes.js';
import type { Requester } from './redoPoint.js';
import { restoreLocked, type RestoreResult } from './restore.js';
import { movedFrom } from './finishingPoint.js';
import { salvageCutOff } from './salvage.js';
import type { RacedWrites } from './writtenMeanwhile.js';

/** The restore a redo undoes, and where it goes back to. */
export interface RedoTarget {
  point: RedoPoint;
  /** The checkpoint holding the files as they were just before that restore (the redo goes back to it). */
  back: CheckpointRecord;
  /** The checkpoint that restore put back, when known. */
  restored: number | null;
  /** When that restore was made (its redo point's time). */
  time: string;
  /** True when that restore was cut off: the redo finishes going back to before it. */
  interrupted: boolean;
  /** True when a restore or an undo was cut off: the redo then checkpoints the files first even if it changes none. */
  cutOff: boolean;
  /** What was written into the files the cut-off restore displaced, kept first. */
  salvaged?: RacedWrites;
}

export interface RedoPreview extends RedoTarget {
  preview: RestorePreview;
  /** The files it changes that were changed since that restore (changedSince). */
  changedSince: string[];
}

export interface RedoResult extends RestoreResult {
  /** The checkpoint the files are back to (the undone restore's redo point). */
  undid: number;
  /** The checkpoint holding the files as they were just before this redo (null: it changed no file, and took none). */
  before: number | null;
  /** The files it changed that were changed since that restore (changedSince). */
  changedSince: string[];
}

/**
 * Of `paths` (those an undo changes), the ones that differ in `tree` (the files before the
 * undo) from what the undone restore put back (checkpoint `restored`): changed since that
 * restore, by the agent or by hand, so the undo takes those changes back too (they stay in
 * the checkpoint it takes first). None when that checkpoint is unknown or gone.
 */
async function changedSince(engine: Engine, restored: number | null, tree: () => string, paths: readonly string[]): Promise<string[]> {
  if (restored === null || paths.length === 0) return [];
  try {
    const differ = new Set((await changesTo(engine, tree(), engine.get(restored), [])).map((change) => change.path));
    return paths.filter((file) => differ.has(file));
  } catch {
    return [];
  }
}

/** The rewind an undo was asked for is no longer the one on top (another rewind ran since its plan was shown): nothing was undone. */
export class StaleUndoError extends UserError {}

const nothingToUndo = 'nothing to undo: no restore has been made here (or every one was undone already)';

/** The restore `rewind redo` would undo now: the top of the redo stack, or the one cut off. */
async function redoTarget(engine: Engine): Promise<RedoTarget> {
  const cutOff = interruptedJournal(engine.store.journal);
  // What was written into the files a cut-off restore displaced is kept first (its redo point may move).
  const salvage = cutOff ? await salvageCutOff(engine, cutOff) : undefined;
  const interrupted = salvage?.journal;
  const stack = await readRedoStack(engine.repo);
  let point: RedoPoint | undefined;
  if (interrupted && !interrupted.isRedo) {
    // Back to before the restore that was cut off (its redo point may not be pushed yet, or
    // may have been moving to the checkpoint of writes that raced it).
    const moving = movedFrom(stack, interrupted);
    point = stack.find((candidate) => candidate.checkpoint === interrupted.redo) ?? (moving ? { ...moving, checkpoint: interrupted.redo } : { seq: 0, checkpoint: interrupted.redo, restored: interrupted.target, ref: '' });
  } else {
    point = stack.at(-1);
  }
  if (!point) throw new UserError(nothingToUndo);
  const back = engine.get(point.checkpoint);
  // Stores from before the ref named the restored checkpoint: its label does.
  const restored = point.restored ?? Number(/^before restoring #(\d+)(?: \(chosen files\))?$/.exec(back.label)?.[1] ?? Number.NaN);
  return { point, back, restored: Number.isInteger(restored) ? restored : null, time: back.time, interrupted: interrupted !== undefined && !interrupted.isRedo, cutOff: interrupted !== undefined, ...(salvage?.raced.writtenMeanwhile || salvage?.raced.unchecked ? { salvaged: salvage.raced } : {}) };
}

/** What `rewind redo` would do now: which restore it undoes, and the plan. Changes nothing. */
export async function previewRedo(engine: Engine, current?: CurrentTree): Promise<RedoPreview> {
  const target = await engine.locked('preview a redo', () => redoTarget(engine));
  const created = readCreated(engine, target.point);
  // From the work tree as the caller read it (the picker's, read once for all its previews), or as it is now.
  const planned = current ? { preview: await planChecked(engine, target.back.id, current, [], created), from: current.tree } : await planNow(engine, target.back.id, [], created);
  return { ...target, preview: planned.preview, changedSince: await changedSince(engine, target.restored, () => planned.from, plannedPaths(planned.preview)) };
}

/**
 * Undoes the last restore: restores the checkpoint its redo point holds (the files as they
 * were just before it), and pops it. The files as they are before the redo are
 * checkpointed first, so a redo can be undone too (`rewind restore <that id>`), unless it
 * changes no file and nothing was cut off (RestoreResult.changedNothing: `before` is null).
 * After an interrupted restore, this puts everything back as it was before it.
 * With `expected` (the ref a preview showed), a redo stack that changed since is refused.
 */
export async function redoLast(engine: Engine, requester: Requester = {}, expected?: string): Promise<RedoResult> {
  return engine.locked('redo', async () => {
    const { point, salvaged, restored } = await redoTarget(engine);
    if (expected !== undefined && point.ref !== expected) {
      throw new StaleUndoError('not undone: the restores to undo changed since the plan was shown (another rewind ran); run `rewind redo` again to see the new plan');
    }
    const result = await restoreLocked(engine, point.checkpoint, requester, point);
    const writtenMeanwhile = result.writtenMeanwhile ?? salvaged?.writtenMeanwhile;
    const unchecked = result.unchecked ?? salvaged?.unchecked;
    const before = result.changedNothing ? null : (engine.log.last()?.id ?? point.checkpoint);
    const since = before === null ? [] : await changedSince(engine, restored, () => engine.get(before).tree, [...result.changed, ...result.deleted]);
    return { ...result, ...(writtenMeanwhile ? { writtenMeanwhile } : {}), ...(unchecked ? { unchecked } : {}), undid: point.checkpoint, before, changedSince: since };
  });
}
