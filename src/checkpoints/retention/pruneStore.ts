// Drops checkpoints from a store (retention, `rewind prune`): their list entries and refs
// go, and the chain is made whole again without them, so the objects only they needed can
// be reclaimed and `git log -p` on the shadow still reads as one history. Done in steps,
// so the project lock is never held for work that grows with the history (every kept
// commit is recreated when the oldest go, every ref moved): the list entries go under the
// lock; the commits are recreated without it (only objects, and pruneRef keeping them
// reachable); the list moves onto them under the lock, with what was checkpointed
// meanwhile chained after them; the refs follow under the lock, a batch at a time. Between
// two steps the list is whole and every commit it names is there: snapshots go on. The
// `pruning` marker stays until the refs agree, so a drop cut off is finished next time.
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

/** The parent of each commit of the chain that is known without asking git (the chain a rechain made). */
export type KnownParents = ReadonlyMap<string, string | undefined>;

/**
 * The kept records with the commits they have once the dropped ones are gone: a commit
 * whose parent is no longer the previous kept checkpoint's is recreated (same tree, dates
 * and message) on that one, in one `git fast-import`. Also returns the parent of every
 * commit of the chain (`known` spares asking git for those already known).
 */
async function rechain(repo: ShadowRepo, kept: readonly CheckpointRecord[], known: KnownParents = new Map()): Promise<{ records: CheckpointRecord[]; rewritten: number; parents: Map<string, string | undefined> }> {
  const restorable = kept.filter((record) => !record.unrestorable);
  const commits = [...new Set(restorable.map((record) => record.commit))];
  const facts = await readCommits(repo, commits.filter((commit) => !known.has(commit)));
  const parentOf = (record: CheckpointRecord): string | undefined => {
    if (known.has(record.commit)) return known.get(record.commit);
    const original = facts.get(record.commit);
    if (!original) throw new Error(`checkpoint #${record.id}: commit ${record.commit} could not be read`);
    return original.parent;
  };
  // Which commits are recreated, and on what (a mark for one recreated before it).
  const newCommit = new Map<string, string>();
  const recreated: { commit: string; tree: string; parent: string | undefined }[] = [];
  let parent: string | undefined;
  for (const record of restorable) {
    if (!newCommit.has(record.commit)) {
      if (parentOf(record) === parent) {
        newCommit.set(record.commit, record.commit);
      } else {
        recreated.push({ commit: record.commit, tree: record.tree, parent });
        newCommit.set(record.commit, `:${recreated.length}`);
      }
    }
    parent = newCommit.get(record.commit);
  }
  if (recreated.length > 0) {
    const more = await readCommits(repo, recreated.map((entry) => entry.commit).filter((commit) => !facts.has(commit)));
    const stream = recreated.map((entry, index) => importCommit(index + 1, entry.tree, entry.parent, facts.get(entry.commit) ?? more.get(entry.commit) ?? missing(entry.commit)));
    const queries = recreated.map((_, index) => `get-mark :${index + 1}\n`).join('');
    const result = await repo.storeGit(['fast-import', '--quiet', '--force', '--done'], { input: `${stream.join('\n')}${queries}done\n` });
    const created = result.stdout.toString('utf8').trim().split('\n');
    if (created.length !== recreated.length || created.some((commit) => !/^[0-9a-f]{40,64}$/.test(commit))) throw new Error(`git fast-import answered ${created.length} commits for ${recreated.length}`);
    recreated.forEach((entry, index) => newCommit.set(entry.commit, created[index] ?? ''));
  }
  const resolve = (commit: string | undefined) => (commit?.startsWith(':') ? newCommit.get(recreated[Number(commit.slice(1)) - 1]?.commit ?? '') : commit);
  const parents = new Map<string, string | undefined>();
  for (const entry of recreated) parents.set(newCommit.get(entry.commit) ?? '', resolve(entry.parent));
  for (const record of restorable) if (newCommit.get(record.commit) === record.commit) parents.set(record.commit, parentOf(record));
  const records = kept.map((record) => (record.unrestorable ? record : { ...record, commit: newCommit.get(record.commit) ?? record.commit }));
  return { records, rewritten: recreated.length, parents };
}

function missing(commit: string): never {
  throw new Error(`commit ${commit} could not be read`);
}

/**
 * Takes the checkpoints `drop` names out of the list (under the lock), leaving the `pruning`
 * marker until the drop is finished; returns the records kept. Their refs and commits stay
 * for now (rechainKept, applyRechain, reconcileSome finish it); an empty `drop` finishes a
 * drop a crash cut off.
 */
export function dropFromList(repo: ShadowRepo, log: CheckpointLog, drop: ReadonlySet<number>): CheckpointRecord[] {
  const records = log.readAll();
  const kept = records.filter((record) => !drop.has(record.id));
  fs.writeFileSync(repo.store.pruning, `${process.pid}\n`, { mode: 0o600 });
  if (kept.length !== records.length) log.rewrite(kept);
  return kept;
}

/** The kept checkpoints' commits on each other: old commit -> its commit now, and the chain's parents. */
export interface Rechained {
  commitOf: Map<string, string>;
  parents: KnownParents;
}

/** Recreates the kept checkpoints' commits on each other (without the lock: it writes only objects, and pruneRef). */
export async function rechainKept(repo: ShadowRepo, kept: readonly CheckpointRecord[]): Promise<Rechained> {
  const { records, parents } = await rechain(repo, kept);
  const commitOf = new Map<string, string>();
  kept.forEach((record, index) => commitOf.set(record.commit, records[index]?.commit ?? record.commit));
  return { commitOf, parents };
}

/**
 * Moves the list as it is now onto the commits rechainKept made (under the lock); what was
 * checkpointed since (on the old chain) is recreated after them. Only those are asked of git.
 */
export async function applyRechain(repo: ShadowRepo, log: CheckpointLog, rechained: Rechained): Promise<void> {
  const records = log.readAll();
  const moved = records.map((record) => (record.unrestorable ? record : { ...record, commit: rechained.commitOf.get(record.commit) ?? record.commit }));
  const result = await rechain(repo, moved, rechained.parents);
  if (result.records.some((record, index) => record.commit !== records[index]?.commit)) log.rewrite(result.records);
}

/**
 * Makes at most `limit` of the ref changes that bring the refs to agree with the list (under
 * the lock); returns how many are left (none: they agree, and the drop's marker is gone).
 */
export async function reconcileSome(repo: ShadowRepo, log: CheckpointLog, limit: number): Promise<number> {
  const left = await reconcileRefs(repo, log.readAll(), limit);
  if (left === 0) fs.rmSync(repo.store.pruning, { force: true });
  return left;
}

/** Whether a drop was cut off before its refs agreed with the list (dropFromList with nothing more finishes it). */
export function dropUnderWay(repo: ShadowRepo): boolean {
  return fs.existsSync(repo.store.pruning);
}
