// `rewind restore <id> --session`: of what changed since checkpoint <id>, what one session's
// own steps changed, apart from what other sessions, agents or the user changed meanwhile.
import type { CheckpointRecord, ProjectCheckpoints } from '../../checkpoints/index.js';

export interface SessionScope {
  /** Paths the session's steps changed since the checkpoint and nothing else did: what a
   * `--session` restore puts back. */
  paths: string[];
  /** Paths the session changed that another session, agent or an edit outside them changed
   * too since: left as they are (name them with --only to restore them anyway). */
  shared: string[];
  /** How many paths only others changed since: left as they are. */
  others: number;
}

/**
 * The step of each checkpoint from `id` on (to the next checkpoint, the newest's to the files
 * now) is its session's: the paths each step changed, by owner, in one diff of each pair of
 * trees (spanChanges, cached). Checkpoints that can no longer be read are passed over: their
 * step is in the step before them.
 */
export async function sessionScope(checkpoints: ProjectCheckpoints, id: number, session: string): Promise<SessionScope> {
  const records = checkpoints.list();
  const from = records.findIndex((record) => record.id === id);
  const later: CheckpointRecord[] = records.slice(Math.max(0, from)).filter((record) => !record.unrestorable);
  const now = (await checkpoints.currentTree()).tree;
  const pairs = later.map((record, index) => [record.tree, later[index + 1]?.tree ?? now] as const);
  const spans = await checkpoints.spanChanges(pairs);
  const mine = new Set<string>();
  const theirs = new Set<string>();
  spans.forEach((span, index) => {
    const owner = later[index]?.session === session ? mine : theirs;
    for (const file of span.paths) owner.add(file);
  });
  const shared = [...mine].filter((file) => theirs.has(file));
  return { paths: [...mine].filter((file) => !theirs.has(file)), shared, others: [...theirs].filter((file) => !mine.has(file)).length };
}
