import fs from 'node:fs';
import { text } from '../git/git.js';
import { reconcileRefs } from './reconcileRefs.js';
import type { CheckpointLog } from './checkpointLog.js';
import { checkpointMessage } from './message.js';
import type { CheckpointRecord } from './record.js';
import type { ShadowRepo } from './shadowRepo.js';
import { findBrokenTrees } from './verifyObjects.js';

export interface RepairResult {
  /** Checkpoints found unrestorable now (their objects are gone). */
  broken: number[];
  /** Checkpoints whose commit was recreated on the shortened chain. */
  rewritten: number;
}

/** Marker left by a failed background gc: the next repair point (list, app start) acts on it. */
export function repairMarker(repo: ShadowRepo): string {
  return repo.store.needsRepair;
}

async function recommit(repo: ShadowRepo, record: CheckpointRecord, parent: string | undefined): Promise<string> {
  const result = await repo.storeGit(['commit-tree', ...(parent ? ['-p', parent] : []), record.tree], {
    env: { ...repo.env, GIT_AUTHOR_DATE: record.time, GIT_COMMITTER_DATE: record.time },
    input: checkpointMessage(record),
  });
  return text(result);
}

/**
 * Takes checkpoints whose borrowed objects the project has pruned out of the chain, so
 * maintenance (which walks every commit from every ref) works again. Such a checkpoint
 * stays listed, marked unrestorable, but loses its ref; the commits after it are recreated
 * (same trees, messages and times) on the nearest restorable checkpoint. Run under the lock.
 */
export async function repairChain(repo: ShadowRepo, log: CheckpointLog): Promise<RepairResult> {
  // The marker goes only once the repair is done: a repair that fails is tried again.
  const records = log.readAll();
  const broken = await findBrokenTrees(repo, records.filter((record) => !record.unrestorable).map((record) => record.tree));
  if (broken.size === 0) {
    fs.rmSync(repairMarker(repo), { force: true });
    return { broken: [], rewritten: 0 };
  }

  const newCommitOf = new Map<string, string>();
  const updated: CheckpointRecord[] = [];
  const newlyBroken: number[] = [];
  let parent: string | undefined;
  let rewriting = false;
  let rewritten = 0;
  for (const original of records) {
    const record = { ...original };
    if (record.unrestorable || broken.has(record.tree)) {
      if (!record.unrestorable) newlyBroken.push(record.id);
      record.unrestorable = true;
      rewriting = true;
      updated.push(record);
      continue;
    }
    const known = newCommitOf.get(original.commit);
    if (known) {
      record.commit = known;
    } else if (rewriting) {
      record.commit = await recommit(repo, record, parent);
      newCommitOf.set(original.commit, record.commit);
      rewritten++;
    } else {
      newCommitOf.set(original.commit, original.commit);
    }
    parent = record.commit;
    updated.push(record);
  }

  // The redo stack's refs too: one left on a commit that reaches the missing objects would fail every gc again.
  await reconcileRefs(repo, updated);
  log.rewrite(updated);
  fs.rmSync(repairMarker(repo), { force: true });
  return { broken: newlyBroken, rewritten };
}
