// The picker's `u`: what reverting one step (taking back that step alone, keeping the later
// ones) would do, and doing it, in a running session.
import type { PickerRevertPlan } from '../../app/picker/types.js';
import type { RevertResult } from '../../checkpoints/index.js';
import { messageOf } from '../../shared/errors.js';
import { partsOf, sessionSteps } from '../../services/steps/sessionSteps.js';
import { conflictWords, revertCounts, revertPlanBody } from '../../services/steps/revertLines.js';
import { filesReverted } from '../../hooks/restoreNote.js';
import type { Checkpointer } from '../checkpointing/checkpointer.js';
import type { SessionPort } from '../session/sessionPort.js';
import type { Requester } from '../../checkpoints/index.js';
import type { PickerCheckpoint } from '../../app/picker/types.js';
import { revertName } from './stepNames.js';

/** The last checkpoint step `id` takes in (a turn: its last step's), as `rewind revert` reads it. */
function throughOf(checkpointer: Checkpointer, id: number): number {
  return partsOf(sessionSteps(checkpointer.engine.list()), id).at(-1)?.through ?? id;
}

/** What `u` shows: the plan as `rewind revert --dry-run` prints it; a step that cannot be reverted says why, naming it as `rows` do. */
export async function revertPlanOf(checkpointer: Checkpointer, id: number, rows: readonly PickerCheckpoint[]): Promise<PickerRevertPlan> {
  try {
    const plan = await checkpointer.engine.previewRevert(id, { through: throughOf(checkpointer, id) });
    // Under the view's title, which names the step as its row does: no checkpoint ids.
    const lines = [`${revertCounts(plan)}, keeping what came after:`, ...revertPlanBody(plan), '  your files as they are now are checkpointed first: /redo (or Esc Esc → undo last rewind) undoes it'];
    return { lines, conflicts: plan.conflicts.length };
  } catch (error) {
    return { lines: [], conflicts: 0, error: inRowWords(messageOf(error), id, revertName(rows, id)) };
  }
}

/**
 * The engine's words for step `id` (`the step of #3`, `checkpoint #3's step`: the command
 * line's) as its row names it, without the ids and the command that go with them (`(#3 ->
 * #4)`, ``see `rewind show 3` ``: `d` shows the step here).
 */
function inRowWords(message: string, id: number, name: string): string {
  if (name.startsWith('#')) return message;
  return message
    .replaceAll(`the step of #${id}`, name)
    .replaceAll(`checkpoint #${id}'s step`, name)
    .replace(new RegExp(` \\(#${id} -> [^)]*\\)`), '')
    .replace(new RegExp(`; see \`rewind show ${id}\`$`), '');
}

/** `work`, its failure said in the row's words (inRowWords). */
async function inRowTerms<T>(id: number, name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error) error.message = inRowWords(error.message, id, name);
    throw error;
  }
}

/** Reverts step `id` with the watcher paused; returns the notice's words before the counts, and the result. */
export async function revertInSession(session: SessionPort, checkpointer: Checkpointer, id: number, conflicts: 'keep' | 'markers' | undefined, requester: Requester, rows: readonly PickerCheckpoint[]): Promise<{ what: string; result: RevertResult }> {
  const name = revertName(rows, id);
  const result = await inRowTerms(id, name, () =>
    session.restores.whileRestoring((changed) => checkpointer.engine.revert(id, { through: throughOf(checkpointer, id), ...(conflicts ? { conflicts } : {}), ...requester, ...changed })),
  );
  checkpointer.refresh();
  const how = conflictWords(result.plan, result.conflicts).replace(/^; /, ', ');
  const marked = result.conflicts === 'markers' ? result.plan.conflicts.filter((conflict) => conflict.withMarkers === 'markers').map((conflict) => conflict.path) : [];
  return { what: `reverted ${name}${how}${filesReverted(session.agent, checkpointer.engine, id, result.restore, marked, name)}`, result };
}
