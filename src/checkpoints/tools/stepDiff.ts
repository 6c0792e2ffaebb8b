import type { Checkpoints } from '../checkpoints.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { pathspecs } from '../restore/planRestore.js';
import { UserError } from '../../shared/errors.js';

/** What one checkpoint's step changed. */
export interface StepDiff {
  record: CheckpointRecord;
  /** The checkpoint the step ends at, or null: the files as they are now (the newest's step). */
  to: CheckpointRecord | null;
  /** Checkpoints passed over because they can no longer be restored. */
  passedOver: number[];
  diff: Buffer;
}

/**
 * The step of checkpoint `id`: from its files to the next checkpoint's (the next one that
 * can still be read), or to the files as they are now for the newest. `git diff-tree` in
 * `format` (`-p`, `--name-status`, colours), limited to `only`.
 */
export async function stepDiff(engine: Checkpoints, id: number, only: readonly string[], format: readonly string[]): Promise<StepDiff> {
  const records = engine.list();
  const index = records.findIndex((record) => record.id === id);
  const record = engine.get(id);
  const why = whyUnrestorable(record);
  if (why) throw new UserError(`checkpoint #${id}'s step cannot be shown: ${why}`);
  const later = records.slice(index + 1);
  const toIndex = later.findIndex((entry) => !entry.unrestorable);
  const to = toIndex < 0 ? null : (later[toIndex] as CheckpointRecord);
  const passedOver = (toIndex < 0 ? later : later.slice(0, toIndex)).map((entry) => entry.id);
  const toTree = to ? to.tree : (await engine.currentTree()).tree;
  const result = await engine.repo.git(['diff-tree', '-r', '--no-renames', ...format, record.tree, toTree, ...pathspecs(only)]).catch((error: unknown) => {
    throw new UserError(`the step of #${id} could not be read (its files may have been pruned): ${(error as Error).message}`, { cause: error });
  });
  return { record, to, passedOver, diff: result.stdout };
}
