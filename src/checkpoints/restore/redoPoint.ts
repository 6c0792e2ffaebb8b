// The checkpoint a restore takes before it changes anything: the files as they are (the
// redo point `rewind redo` goes back to), taken with the diff to the target in the same
// script, and the restore's helpers started beside its walk.
import { chosenFilesMark } from '../../shared/triggers.js';
import type { Engine } from '../snapshot/engine.js';
import { parseRawDiff, type RawChange } from '../git/diffRaw.js';
import type { CheckpointRecord } from '../store/record.js';
import { nextRedoSeq, redoRef, type RedoPoint } from '../store/redoStack.js';
import type { PlanStart } from './planRestore.js';
import { changesTo, requireObjects } from './preview.js';
import type { RestoreHelpers } from './restoreHelpers.js';

/** Who asked: recorded on the checkpoint a restore or redo takes first, as on any snapshot. */
export interface Requester {
  /** The app session (REWIND_SESSION on the command line), or null. */
  session?: string | null;
  /** The agent it runs (REWIND_AGENT on the command line), or null. */
  agent?: string | null;
  /** Only these project-relative paths changed since the newest checkpoint (the app's
   * watcher saw them): the redo point stages them alone (SnapshotOptions.paths). */
  changedPaths?: readonly string[];
}

/** The redo point a restore takes first: the files as they are, on the redo stack unless this is a redo. */
export interface Start extends PlanStart {
  redo: number;
  /** The checkpoint whose tree this start is (the redo point, or the one taken before finishing). */
  base: CheckpointRecord;
  /** The redo point to push once the journal is written (not for a redo, nor when finishing). */
  pushed?: RedoPoint;
  /** The diff from it to the target, when the snapshot could give it. */
  changes?: RawChange[];
}

export async function takeRedoPoint(engine: Engine, target: CheckpointRecord, options: Requester & { only: readonly string[] }, redoOf: RedoPoint | undefined, helpers: RestoreHelpers): Promise<Start> {
  // Every object the restore reads is read (staged) before any file is touched; if one is
  // missing, the redo point taken for it is dropped again, so nothing at all changes. For
  // --only, the objects are also checked before that point is taken.
  const newest = engine.log.last();
  const whole = options.only.length === 0;
  if (newest && newest.tree !== target.tree && !whole) {
    const likely = await changesTo(engine, newest.tree, target, options.only);
    await requireObjects(engine, target.id, likely.filter((change) => change.status !== 'D' && change.dstMode !== '160000').map((change) => change.dstOid));
  }
  // One git process: checkpoint the files as they are (the redo point) and diff it against
  // the target. It goes on the redo stack once the journal is written.
  // A restore of chosen files says so: its row is not a whole rewind.
  const label = redoOf ? `before redo (back to #${redoOf.checkpoint})` : `before restoring #${target.id}${chosenFilesMark(options.only)}`;
  const seq = redoOf ? 0 : await nextRedoSeq(engine.repo);
  const { record, toTarget } = await engine.snapshotLocked({
    trigger: redoOf ? 'redo' : 'restore',
    label,
    session: options.session ?? null,
    agent: options.agent ?? null,
    backgroundScan: false,
    diffTo: whole ? target.tree : undefined,
    ...(options.changedPaths ? { paths: options.changedPaths } : {}),
    whileRunning: () => helpers.start(),
  });
  return {
    redo: record.id,
    base: record,
    tree: record.tree,
    nested: record.nested,
    pushed: redoOf ? undefined : { seq, checkpoint: record.id, restored: target.id, ref: redoRef(seq, record.id, target.id) },
    changes: toTarget ? parseRawDiff(toTarget) : undefined,
  };
}

/**
 * Where finishing a cut-off restore starts: the files as they are now, checkpointed first
 * (edits made since it was cut off are not in its redo point, and finishing may overwrite
 * them); `rewind redo` still goes back to before the restore that was cut off.
 */
export async function finishingStart(engine: Engine, id: number, redo: number, helpers: RestoreHelpers): Promise<Start> {
  const { record } = await engine.snapshotLocked({ trigger: 'restore', label: `before finishing the restore of #${id}`, onlyIfChanged: true, backgroundScan: false, whileRunning: () => helpers.start() });
  return { tree: record.tree, nested: record.nested, redo, base: record };
}
