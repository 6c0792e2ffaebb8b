import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointLog } from './checkpointLog.js';
import type { CheckpointRecord } from './record.js';
import type { ShadowRepo } from './shadowRepo.js';

/** Whether the shadow repo has any checkpoint refs (loose or packed), read from its files. */
export function hasCheckpointRefs(repo: ShadowRepo): boolean {
  try {
    if (fs.readdirSync(path.join(repo.gitDir, 'refs', 'checkpoints')).length > 0) return true;
  } catch {
    // No loose checkpoint refs.
  }
  try {
    return fs.readFileSync(path.join(repo.gitDir, 'packed-refs'), 'utf8').includes(' refs/checkpoints/');
  } catch {
    return false;
  }
}

/**
 * Rebuilds checkpoints.jsonl from the shadow repo after it was lost or moved aside: every
 * `refs/checkpoints/<id>` with its commit's tree, time, label and trigger (kept in the commit
 * message). What only the list held (sessions, skipped files, counts) is unknown then.
 */
export async function rebuildLog(repo: ShadowRepo, log: CheckpointLog): Promise<CheckpointRecord[]> {
  const format = '%(refname:lstrip=2)%00%(objectname)%00%(tree)%00%(committerdate:iso-strict)%00%(contents)%00%00';
  const listed = await repo.git(['for-each-ref', `--format=${format}`, 'refs/checkpoints/']);
  const records: CheckpointRecord[] = [];
  for (const entry of listed.stdout.toString('utf8').split('\0\0\n')) {
    const [name = '', commit = '', tree = '', time = '', message = ''] = entry.split('\0');
    const id = Number(name);
    if (!Number.isInteger(id) || !commit) continue;
    const subject = message.split('\n')[0] ?? '';
    const trigger = /^Rewind-Trigger: (.*)$/m.exec(message)?.[1] ?? 'manual';
    const madeBy = Number(/^Rewind-Checkpoint: (\d+)$/m.exec(message)?.[1]);
    const deduped = madeBy !== id;
    records.push({
      id,
      commit,
      tree,
      time: new Date(time).toISOString(),
      session: null,
      agent: null,
      // A checkpoint that made no commit shares the previous one's message: its own is lost.
      trigger: deduped ? 'unknown' : trigger,
      label: deduped ? '(no change from the previous checkpoint)' : subject === trigger ? '' : subject,
      deduped,
      changedSincePrevious: null,
      skipped: [],
      nested: [],
      projectHead: null,
      conversation: null,
    });
  }
  records.sort((a, b) => a.id - b.id);
  log.rewrite(records);
  return records;
}
