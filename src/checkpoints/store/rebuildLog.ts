import type { CheckpointLog } from './checkpointLog.js';
import type { CheckpointRecord } from './record.js';
import type { ShadowRepo } from './shadowRepo.js';
import { gitText, shadowGitClient } from './gitClient.js';
import { refExists, refsUnder } from '../git/refs.js';

/**
 * Whether the list lacks checkpoints the shadow repo has: the list is gone or empty while
 * refs exist, or the ref after its newest entry exists (a list cut short). Then the next
 * id would be one already used.
 */
export function listBehindRefs(repo: ShadowRepo, log: CheckpointLog): boolean {
  if (!repo.exists()) return false;
  const newest = log.last();
  if (newest === undefined) return hasCheckpointRefs(repo);
  return refExists(repo.gitDir, `refs/checkpoints/${newest.id + 1}`);
}

/** Whether the shadow repo has any checkpoint refs (loose or packed), read from its files. */
export function hasCheckpointRefs(repo: ShadowRepo): boolean {
  return refsUnder(repo.gitDir, 'refs/checkpoints/').length > 0;
}

/**
 * Rebuilds checkpoints.jsonl from the shadow repo after it was lost, emptied, cut short or
 * moved aside: every `refs/checkpoints/<id>` the list lacks, with its commit's tree, time,
 * label and trigger (kept in the commit message), merged with the entries the list still
 * has. What only the list held (sessions, skipped files, counts) is unknown for the
 * rebuilt ones.
 */
export async function rebuildLog(repo: ShadowRepo, log: CheckpointLog): Promise<CheckpointRecord[]> {
  const kept = new Map(log.readAll().map((record) => [record.id, record]));
  const format = '%(refname:lstrip=2)%00%(objectname)%00%(tree)%00%(committerdate:iso-strict)%00%(contents)%00%00';
  const listed = await gitText(await shadowGitClient(repo), ['for-each-ref', `--format=${format}`, 'refs/checkpoints/']);
  const records: CheckpointRecord[] = [];
  for (const entry of listed.split('\0\0\n')) {
    const [name = '', commit = '', tree = '', time = '', message = ''] = entry.split('\0');
    const id = Number(name);
    if (!Number.isInteger(id) || !commit || kept.has(id)) continue;
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
  records.push(...kept.values());
  records.sort((a, b) => a.id - b.id);
  log.rewrite(records);
  return records;
}
