// Drops checkpoints from a store (retention, `rewind prune`): their list entries and refs
// go, and the chain is made whole again without them, so the objects only they needed can
// be reclaimed and `git log -p` on the shadow still reads as one history.
import fs from 'node:fs';
import { splitNul } from '../git/git.js';
import type { CheckpointLog } from '../store/checkpointLog.js';
import { shadowIdentity } from '../git/gitEnv.js';
import type { CheckpointRecord } from '../store/record.js';
import { pruneRef, reconcileRefs } from '../store/reconcileRefs.js';
import type { ShadowRepo } from '../store/shadowRepo.js';


/** An original commit: its parent and its author and committer dates (`--date=raw`). */
interface CommitFacts {
  parent: string | undefined;
  authorDate: string;
  committerDate: string;
  message: string;
}

async function readCommits(repo: ShadowRepo, commits: readonly string[]): Promise<Map<string, CommitFacts>> {
  const facts = new Map<string, CommitFacts>();
  if (commits.length === 0) return facts;
  const result = await repo.storeGit(['log', '-z', '--no-walk=unsorted', '--stdin', '--date=raw', '--format=%H %P%n%ad%n%cd%n%B'], { input: `${commits.join('\n')}\n` });
  for (const entry of splitNul(result.stdout)) {
    const [ids = '', authorDate = '', committerDate = ''] = entry.split('\n', 3);
    const message = entry.split('\n').slice(3).join('\n');
    const [commit = '', parent] = ids.split(' ');
    facts.set(commit, { parent: parent || undefined, authorDate, committerDate, message });
  }
  return facts;
}

/** One commit in git fast-import's stream: the original's tree, dates and message on a new parent. */
function importCommit(mark: number, tree: string, parent: string | undefined, facts: CommitFacts): string {
  const who = `${shadowIdentity.name} <${shadowIdentity.email}>`;
  return [
    `reset ${pruneRef}`,
    `commit ${pruneRef}`,
    `mark :${mark}`,
    `author ${who} ${facts.authorDate}`,
    `committer ${who} ${facts.committerDate}`,
    `data ${Buffer.byteLength(facts.message)}`,
    facts.message,
    ...(parent ? [`from ${parent}`] : []),
    'deleteall',
    `M 040000 ${tree} ""`,
    '',
  ].join('\n');
}

/**
 * The kept records with the commits they have once the dropped ones are gone: a commit
 * whose parent is no longer the previous kept checkpoint's is recreated (same tree, dates
 * and message) on that one, in one `git fast-import`.
 */
async function rechain(repo: ShadowRepo, kept: readonly CheckpointRecord[]): Promise<{ records: CheckpointRecord[]; rewritten: number }> {
  const restorable = kept.filter((record) => !record.unrestorable);
  const facts = await readCommits(repo, [...new Set(restorable.map((record) => record.commit))]);
  const newCommit = new Map<string, string>();
  const marks: string[] = [];
  const stream: string[] = [];
  let parent: string | undefined;
  for (const record of restorable) {
    if (newCommit.has(record.commit)) continue;
    const original = facts.get(record.commit);
    if (!original) throw new Error(`checkpoint #${record.id}: commit ${record.commit} could not be read`);
    if (original.parent === parent) {
      newCommit.set(record.commit, record.commit);
    } else {
      marks.push(record.commit);
      stream.push(importCommit(marks.length, record.tree, parent, original));
      newCommit.set(record.commit, `:${marks.length}`);
    }
    parent = newCommit.get(record.commit);
  }
  if (marks.length > 0) {
    const queries = marks.map((_, index) => `get-mark :${index + 1}\n`).join('');
    const result = await repo.storeGit(['fast-import', '--quiet', '--force', '--done'], { input: `${stream.join('\n')}${queries}done\n` });
    const created = result.stdout.toString('utf8').trim().split('\n');
    if (created.length !== marks.length || created.some((commit) => !/^[0-9a-f]{40,64}$/.test(commit))) throw new Error(`git fast-import answered ${created.length} commits for ${marks.length}`);
    marks.forEach((original, index) => newCommit.set(original, created[index] ?? ''));
  }
  const records = kept.map((record) => (record.unrestorable ? record : { ...record, commit: newCommit.get(record.commit) ?? record.commit }));
  return { records, rewritten: marks.length };
}

/**
 * Drops the checkpoints `drop` names from the list and the shadow repo (run under the
 * lock). Objects are not reclaimed here (reclaimStore). Returns the records kept.
 */
export async function dropCheckpoints(repo: ShadowRepo, log: CheckpointLog, drop: ReadonlySet<number>): Promise<{ kept: CheckpointRecord[]; rewritten: number }> {
  const records = log.readAll();
  const kept = records.filter((record) => !drop.has(record.id));
  fs.writeFileSync(repo.store.pruning, `${process.pid}\n`, { mode: 0o600 });
  const result = await rechain(repo, kept);
  if (kept.length !== records.length || result.rewritten > 0) log.rewrite(result.records);
  await reconcileRefs(repo, result.records);
  fs.rmSync(repo.store.pruning, { force: true });
  return { kept: result.records, rewritten: result.rewritten };
}

/** Finishes a drop a crash cut off between the list and the refs (run under the lock). */
export async function finishInterruptedDrop(repo: ShadowRepo, log: CheckpointLog): Promise<boolean> {
  if (!fs.existsSync(repo.store.pruning)) return false;
  await reconcileRefs(repo, log.readAll());
  fs.rmSync(repo.store.pruning, { force: true });
  return true;
}
