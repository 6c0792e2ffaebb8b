// The store's refs made to agree with its list, after a drop (retention) or a repair.
import type { CheckpointRecord } from './record.js';
import { readRedoStack } from './redoStack.js';
import type { ShadowRepo } from './shadowRepo.js';

/** Keeps the commits a prune is writing reachable until the refs point at them. */
export const pruneRef = 'refs/rewind/prune';

/**
 * Every ref of the store made to agree with the list: a checkpoint's ref at its commit (none
 * for one that is unrestorable), the redo stack's at theirs (gone with their checkpoint).
 * With a `limit`, that many changes at most (pruneRef's deletion last: it keeps recreated
 * commits reachable until the refs point at them); returns how many were left for later.
 */
export async function reconcileRefs(repo: ShadowRepo, records: readonly CheckpointRecord[], limit = Infinity): Promise<number> {
  const wanted = new Map<string, string>();
  for (const record of records) if (!record.unrestorable) wanted.set(`refs/checkpoints/${record.id}`, record.commit);
  const newest = records.at(-1)?.id ?? 0;
  const commitOf = new Map(records.filter((record) => !record.unrestorable).map((record) => [record.id, record.commit]));
  const redo = new Map((await readRedoStack(repo)).map((point) => [point.ref, commitOf.get(point.checkpoint)]));
  const listed = await repo.storeGit(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/checkpoints/', 'refs/rewind/']);
  const updates: string[] = [];
  for (const line of listed.stdout.toString('utf8').split('\n').filter(Boolean)) {
    const [ref = '', commit = ''] = line.split(' ');
    const id = Number(/^refs\/checkpoints\/(\d+)$/.exec(ref)?.[1] ?? NaN);
    let target: string | undefined;
    if (redo.has(ref)) target = redo.get(ref);
    else if (ref === pruneRef) target = undefined;
    else if (ref.startsWith('refs/rewind/')) continue;
    // A checkpoint's ref newer than the list is a lost list entry (rebuildLog brings it back), not one to drop.
    else if (id > newest) continue;
    else target = wanted.get(ref);
    if (target === undefined) updates.push(`delete ${ref}\n`);
    else if (target !== commit) updates.push(`update ${ref} ${target}\n`);
    wanted.delete(ref);
  }
  for (const [ref, commit] of wanted) updates.push(`update ${ref} ${commit}\n`);
  updates.sort((a, b) => Number(a === `delete ${pruneRef}\n`) - Number(b === `delete ${pruneRef}\n`));
  const now = updates.slice(0, limit);
  if (now.length > 0) await repo.storeGit(['update-ref', '--stdin'], { input: now.join('') });
  return updates.length - now.length;
}
