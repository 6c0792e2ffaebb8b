import type { Engine } from '../snapshot/engine.js';
import { interruptedJournal, interruptedMessage, readJournal } from '../restore/journal.js';
import { diffTrees } from '../restore/planRestore.js';
import { recordTreeOnTop } from '../restore/recordTree.js';
import type { Requester } from '../restore/redoPoint.js';
import { restoreFromRedoPoint, type RestoreResult } from '../restore/restore.js';
import type { CheckpointRecord } from '../store/record.js';
import { UserError } from '../../shared/errors.js';
import { REVERT_TRIGGER } from '../../shared/triggers.js';
import { planRevert, type RevertPlan, type RevertScope } from './revertPlan.js';
import { RevertConflictsError } from './revertConflicts.js';

export type { RevertChange, RevertConflict, RevertPlan, RevertScope } from './revertPlan.js';

export interface RevertOptions extends RevertScope, Requester {
  /** With conflicts: `keep` writes the settled paths and leaves the conflicted ones as they
   * are now; `markers` also writes git's conflict markers into them. Undefined: with a
   * conflict nothing is written (RevertConflictsError). */
  conflicts?: 'keep' | 'markers';
}

export interface RevertResult {
  plan: RevertPlan;
  /** What the conflicted files got: `none` when there were none, `keep` (left as they were) or `markers`. */
  conflicts: 'none' | 'keep' | 'markers';
  /** The checkpoint holding the files as the revert left them. */
  checkpoint: number;
  restore: RestoreResult;
}

/** What reverting `id`'s step would do to the files now. Changes nothing in the project. */
export async function previewRevert(engine: Engine, id: number, scope: RevertScope = {}): Promise<RevertPlan> {
  return engine.locked('preview a revert', async () => (await planRevert(engine, id, (await engine.currentTreeLocked()).tree, scope)).plan);
}

/**
 * Takes back checkpoint `id`'s step and keeps the later ones, as a restore: the files as they
 * are now are checkpointed first (the redo point, `rewind redo` goes back to it), the step is
 * taken back onto them by git's merge (revertPlan.ts), the result is recorded as a
 * checkpoint on top, and the files are restored to it (staged, journaled, renamed into
 * place; only the paths the revert changes). With a conflict and no choice, nothing is done.
 */
export async function revertStep(engine: Engine, id: number, options: RevertOptions = {}): Promise<RevertResult> {
  return engine.locked('revert', async () => {
    const cutOff = interruptedJournal(engine.store.journal);
    if (cutOff) throw new UserError(`${interruptedMessage(cutOff)}; do that before reverting anything`);
    const { record: before } = await engine.snapshotLocked({
      trigger: 'restore',
      label: `before reverting #${id}`,
      session: options.session ?? null,
      agent: options.agent ?? null,
      backgroundScan: false,
      ...(options.changedPaths ? { paths: options.changedPaths } : {}),
    });
    let result: CheckpointRecord | undefined;
    try {
      const { plan, keep, markers } = await planRevert(engine, id, before.tree, options, before.id);
      if (plan.conflicts.length > 0 && !options.conflicts) throw new RevertConflictsError(plan);
      const chosen = options.conflicts === 'markers' ? markers : keep;
      if (chosen === before.tree) throw new UserError(`reverting the step of #${id} changes no files now${plan.conflicts.length > 0 ? ' (its only changes conflict, and --conflicts keep leaves them as they are)' : ''}`);
      result = await recordResult(engine, before, chosen, plan);
      // From the redo point to the result: the whole tree diff, which is the revert's paths alone.
      const restore = await restoreFromRedoPoint(engine, result.id, { session: options.session ?? null, agent: options.agent ?? null }, before);
      if (restore.changed.length + restore.deleted.length === 0) {
        // Every file it would change was left alone (not writable, say): no revert to undo.
        await dropTaken(engine, result, before);
        const alone = restore.leftAlone.map((item) => `${item.path}: ${item.reason}`).join('; ');
        throw new UserError(`reverting the step of #${id} changed no files: ${alone || 'each was left alone'}`);
      }
      return { plan, conflicts: plan.conflicts.length === 0 ? 'none' : (options.conflicts ?? 'keep'), checkpoint: result.id, restore };
    } catch (error) {
      // Nothing in the project was changed (no journal: the restore stopped before its first
      // change, and took its journal back): the checkpoints taken for it go. With a journal
      // left, files may have changed: both stay, and `rewind restore <result>` finishes it.
      if (!readJournal(engine.store.journal)) await dropTaken(engine, result, before);
      throw error;
    }
  });
}

/** Takes back the checkpoints a revert took (its result, then its redo point), newest first. */
async function dropTaken(engine: Engine, result: CheckpointRecord | undefined, before: CheckpointRecord): Promise<void> {
  if (result) await engine.dropNewestLocked(result.id);
  await engine.dropNewestLocked(before.id);
}

/** The revert's files as a checkpoint on top of its redo point (what the restore goes to). */
async function recordResult(engine: Engine, base: CheckpointRecord, tree: string, plan: RevertPlan): Promise<CheckpointRecord> {
  const changed = await diffTrees(engine, base.tree, tree);
  const count = (status: string) => changed.filter((change) => change.status === status).length;
  return recordTreeOnTop(engine, base, tree, REVERT_TRIGGER, `after reverting #${plan.checkpoint}`, { paths: changed.map((change) => change.path), added: count('A'), deleted: count('D') });
}
