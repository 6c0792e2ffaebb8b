import path from 'node:path';
import { text } from '../git/git.js';
import type { Engine } from '../snapshot/engine.js';
import { checkpointMessage } from '../store/message.js';
import type { CheckpointRecord } from '../store/record.js';

/** What a tree recorded on top of a checkpoint changed there. */
export interface TreeChanges {
  paths: readonly string[];
  added: number;
  deleted: number;
}

/**
 * Records `tree` as a checkpoint on top of `base` (its commit the parent, its session and
 * the rest of its record kept): labelled `<label>: a.ts, b.ts, c.ts and N more` from the
 * paths that changed. What a restore keeps of writes that raced it, and a revert's result.
 * Caller holds the lock.
 */
export async function recordTreeOnTop(engine: Engine, base: CheckpointRecord, tree: string, trigger: string, label: string, changes: TreeChanges): Promise<CheckpointRecord> {
  const id = (engine.log.last()?.id ?? 0) + 1;
  const { paths } = changes;
  const named = `${label}: ${paths.slice(0, 3).map((file) => path.basename(file)).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
  const commit = text(await engine.repo.git(['commit-tree', '--no-gpg-sign', '-p', base.commit, tree], { input: checkpointMessage({ id, label: named, trigger }) }));
  await engine.repo.git(['update-ref', `refs/checkpoints/${id}`, commit]);
  const { agentSession: _left, ...rest } = base;
  const record: CheckpointRecord = {
    ...rest,
    id,
    commit,
    tree,
    time: new Date(engine.now()).toISOString(),
    trigger,
    label: named,
    deduped: false,
    changedSincePrevious: paths.length,
    changedPaths: paths.slice(0, 100),
    changes: { added: changes.added, modified: paths.length - changes.added - changes.deleted, deleted: changes.deleted },
    conversation: null,
  };
  engine.log.append(record);
  return record;
}
