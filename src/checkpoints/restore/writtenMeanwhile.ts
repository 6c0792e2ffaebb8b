import path from 'node:path';
import type { Checkpoints } from '../checkpoints.js';
import { text } from '../git.js';
import { checkpointMessage } from '../message.js';
import type { CheckpointRecord } from '../record.js';
import type { DisplacedFile } from './displaced.js';
import type { PlannedWrite } from './plan.js';
import { treeWith } from './planDiff.js';
import { withScratch } from './staging.js';

/** A displaced file whose content is not what the redo point holds for its path: written while the restore ran. */
export type LateWrite = Pick<PlannedWrite, 'path' | 'mode' | 'oid'>;

/** The blob ids of `files` as their bytes are (no attributes): one git process. */
async function rawBlobIds(engine: Checkpoints, files: readonly string[]): Promise<string[]> {
  const result = await engine.repo.git(['hash-object', '--no-filters', '--stdin-paths'], { input: `${files.join('\n')}\n` });
  return text(result).split('\n');
}

/**
 * The displaced files that hold something the redo point does not: each kept file (the
 * inode the restore replaced or deleted, with every write that landed in it) is hashed as
 * it is; one whose bytes differ from the redo point's blob is hashed again as a snapshot
 * would add it at its own path (the project's attributes, a CRLF file say), and stored.
 * `before` is the redo point's blob id for each path.
 */
export async function lateWrites(engine: Checkpoints, displaced: readonly DisplacedFile[], before: ReadonlyMap<string, string>): Promise<LateWrite[]> {
  if (displaced.length === 0) return [];
  const raw = await rawBlobIds(engine, displaced.map((file) => file.kept));
  const late: LateWrite[] = [];
  for (const [index, file] of displaced.entries()) {
    const held = before.get(file.path);
    if (raw[index] === held) continue;
    const added = text(await engine.repo.git(['hash-object', '-w', `--path=${file.path}`, '--', file.kept]));
    if (added !== held) late.push({ path: file.path, mode: file.mode, oid: added });
  }
  return late;
}

/**
 * Records what was written while a restore ran as a checkpoint of its own: the redo point's
 * files with the late writes in place, on top of the redo point. Caller holds the lock.
 */
export async function recordLateWrites(engine: Checkpoints, redo: CheckpointRecord, target: number, late: readonly LateWrite[]): Promise<CheckpointRecord> {
  const tree = await withScratch(engine, (scratch) => treeWith(engine, redo.tree, { writes: late.map((write) => ({ ...write, creates: false })), deletes: [], leftAlone: [] }, scratch));
  const id = (engine.log.last()?.id ?? 0) + 1;
  const paths = late.map((write) => write.path);
  const label = `written while restoring #${target}: ${paths.slice(0, 3).map((file) => path.basename(file)).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
  const trigger = 'restore';
  const commit = text(await engine.repo.git(['commit-tree', '--no-gpg-sign', '-p', redo.commit, tree], { input: checkpointMessage({ id, label, trigger }) }));
  await engine.repo.git(['update-ref', `refs/checkpoints/${id}`, commit]);
  const record: CheckpointRecord = {
    ...redo,
    id,
    commit,
    tree,
    time: new Date(engine.now()).toISOString(),
    trigger,
    label,
    deduped: false,
    changedSincePrevious: paths.length,
    changedPaths: paths.slice(0, 100),
    changes: { added: 0, modified: paths.length, deleted: 0 },
  };
  delete record.agentSession;
  record.conversation = null;
  engine.log.append(record);
  return record;
}
