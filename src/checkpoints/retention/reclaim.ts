// Reclaiming the space of dropped checkpoints (retention, `rewind prune`) without holding
// the project lock while git works, so a step's snapshot never waits for it: once the drop
// is finished (pruneStore.ts: list, chain and refs as they stay), the moment is marked
// under the lock; then the expensive part, packing what the checkpoints need, runs
// without the lock while snapshots go on; then what no checkpoint needs is deleted under
// the lock in slices of at most sliceMs, a snapshot waiting between two.
//
// Why a snapshot taken meanwhile never loses an object (the rule `git gc --prune=<time>`
// relies on, made exact). Let T be the mtime of a file written under the lock once the
// drop is finished, and W the walk `git pack-objects --all --reflog --indexed-objects`
// makes of the refs and the shadow's index after that hold of the lock. Every object
// reachable at W is in the pack it writes (N), or borrowed from the project's store
// (`--local`), or in a `.keep` pack (`--honor-pack-keep`): none of those is deleted here.
// An object a checkpoint or the index needs now that was not reachable at W was referenced
// since by a snapshot, restore or repair, all of which run after T (they take the lock
// after the hold T was read in) and reach an object in one of two ways: git writes it
// (add, update-index, hash-object -w, write-tree, commit-tree), and git writes an object
// that exists already by refreshing the mtime of its loose file or of the pack holding it
// instead (object-file.c: write_object_file_flags, freshen_*_object); or they carry it
// over from the index or a listed checkpoint, reachable at W or written since (a drop's
// fast-import, too, names only trees of listed checkpoints).
// So every object a checkpoint needs is in N (or borrowed, or kept), or in a file whose
// mtime is >= T: file times come from one clock that does not go back (checked at each
// slice: if it did, nothing more goes). Hence, under the lock (no snapshot writes
// meanwhile), a pack other than N with an mtime
// < T, and a loose object with an mtime < T, hold nothing a checkpoint needs; and a pack
// a snapshot refreshed is kept whole until the next reclaim. Deleting them under the lock,
// not in git's own gc without it, is what closes the window git leaves (a pack refreshed
// after `git repack` read its mtime, then deleted by it). Left out of this: a file over
// core.bigFileThreshold (512 MiB; only with checkpoint_max_file_mb raised past it), which
// git streams into a pack without refreshing an old copy (bulk-checkin.c).
import fs from 'node:fs';
import path from 'node:path';
import { text } from '../git/git.js';
import type { Engine } from '../snapshot/engine.js';
import { repairChain } from '../store/repairChain.js';
import { seam } from '../../shared/seams.js';

/** Packing a big store takes long; one stopped halfway has deleted nothing. */
const packTimeoutMs = 20 * 60 * 1000;

/** The longest the reclaim holds the project lock at a time while it deletes (a hook's snapshot waits at most that). */
const sliceMs = 100;

/** The end of a drop: after it, every object a checkpoint reaches is reachable, or written or refreshed since `since`. */
export interface ReclaimMark {
  /** The store's file system time (ns) when the drop was done, read under the lock. */
  since: bigint;
}

/** Marks the end of a drop; the caller holds the lock, and the list and refs are as they stay. */
export function markReclaim(engine: Engine): ReclaimMark {
  return { since: fileSystemNow(engine) };
}

/**
 * Frees what no checkpoint needs since `mark` (see the top of this file), without the lock
 * but for the deletions' short slices. The caller holds the shadow's gc lock (takeGcLock).
 */
export async function reclaimSince(engine: Engine, mark: ReclaimMark): Promise<void> {
  emptyTrash(engine);
  try {
    await reclaimObjects(engine, mark);
  } finally {
    emptyTrash(engine);
  }
}

async function reclaimObjects(engine: Engine, mark: ReclaimMark): Promise<void> {
  const { gitDir } = engine.repo;
  const packDir = path.join(gitDir, 'objects', 'pack');
  seam('reclaim:packing');
  const written = await packReachable(engine);
  seam('reclaim:packed');
  // Indexes of what is about to go: git reads objects without them (and fsck would trip on
  // a commit-graph naming a deleted commit); written again at the end.
  for (const file of [path.join(gitDir, 'objects', 'info', 'commit-graph'), path.join(gitDir, 'objects', 'info', 'commit-graphs'), path.join(packDir, 'multi-pack-index')]) {
    fs.rmSync(file, { recursive: true, force: true });
  }
  const packs = fs.readdirSync(packDir).filter((name) => name.endsWith('.idx') && !written.has(name.slice(0, -'.idx'.length)));
  await inSlices(engine, mark, packs, (idx) => trashPackIfOld(engine, packDir, idx.slice(0, -'.idx'.length), mark.since));
  emptyTrash(engine);
  await inSlices(engine, mark, looseObjects(gitDir, mark.since), (file) => removeIfOld(file, mark.since));
  try {
    await engine.repo.storeGit(['commit-graph', 'write', '--reachable', '--no-progress'], { timeoutMs: packTimeoutMs });
  } catch {
    // Only a speed-up: git reads the commits without it.
  }
}

/**
 * `git pack-objects` of everything reachable from the refs and the index into one new pack
 * (what `git repack -a` writes, without deleting anything); returns the names (`pack-<hash>`)
 * it wrote, which may be one that was there already (the same objects).
 */
async function packReachable(engine: Engine): Promise<Set<string>> {
  const base = path.join(engine.repo.gitDir, 'objects', 'pack', 'pack');
  const args = ['pack-objects', '--revs', '--all', '--reflog', '--indexed-objects', '--local', '--honor-pack-keep', '--keep-true-parents', '--non-empty', '--delta-base-offset', '--quiet', base];
  const run = async () => text(await engine.repo.storeGit(args, { input: '', timeoutMs: packTimeoutMs }));
  let names: string;
  try {
    names = await run();
  } catch {
    // Objects borrowed from the project's own store were pruned there: take the checkpoints
    // that needed them out of the chain (repairChain), then the walk can be made.
    await engine.locked('repair the chain', () => repairChain(engine.repo, engine.log));
    names = await run();
  }
  return new Set(names.split('\n').filter(Boolean).map((hash) => `pack-${hash}`));
}

/** Runs `act` on each of `items`, holding the lock at most sliceMs at a time. */
async function inSlices<T>(engine: Engine, mark: ReclaimMark, items: readonly T[], act: (item: T) => void): Promise<void> {
  let next = 0;
  while (next < items.length) {
    await engine.locked('reclaim space', async () => {
      if (fileSystemNow(engine) < mark.since) throw new Error('the clock went back while space was reclaimed: the rest goes at the next reclaim');
      const end = performance.now() + sliceMs;
      for (; next < items.length && performance.now() < end; next++) act(items[next] as T);
    });
  }
}

/** Takes pack `name` out of the shadow (into the trash, removed without the lock) if nothing refreshed it since `since`. */
function trashPackIfOld(engine: Engine, packDir: string, name: string, since: bigint): void {
  const pack = fs.statSync(path.join(packDir, `${name}.pack`), { bigint: true, throwIfNoEntry: false });
  if (!pack || pack.mtimeNs >= since || fs.existsSync(path.join(packDir, `${name}.keep`))) return;
  // The .idx first: git finds a pack by it.
  const files = fs.readdirSync(packDir).filter((file) => file.startsWith(`${name}.`) && file !== `${name}.idx`);
  for (const file of [`${name}.idx`, ...files]) fs.renameSync(path.join(packDir, file), path.join(engine.store.reclaimTrash, file));
}

interface LooseObject {
  dir: string;
  file: string;
  /** The last of its folder in the list: the folder is removed too if that leaves it empty. */
  last: boolean;
}

/** The loose objects older than `since` (listed without the lock; each is looked at again before it goes). */
function looseObjects(gitDir: string, since: bigint): LooseObject[] {
  const objects = path.join(gitDir, 'objects');
  const found: LooseObject[] = [];
  for (const fan of fs.readdirSync(objects).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    const dir = path.join(objects, fan);
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((name) => /^[0-9a-f]{38}([0-9a-f]{24})?$/.test(name));
    } catch {
      continue;
    }
    const old = names.map((name) => path.join(dir, name)).filter((file) => (fs.lstatSync(file, { bigint: true, throwIfNoEntry: false })?.mtimeNs ?? since) < since);
    old.forEach((file, index) => found.push({ dir, file, last: index === old.length - 1 }));
  }
  return found;
}

function removeIfOld(object: LooseObject, since: bigint): void {
  const stat = fs.lstatSync(object.file, { bigint: true, throwIfNoEntry: false });
  if (stat && stat.mtimeNs < since) fs.rmSync(object.file, { force: true });
  if (object.last) {
    try {
      fs.rmdirSync(object.dir);
    } catch {
      // Not empty: it holds newer objects.
    }
  }
}

/** The time the store's file system stamps a file with now (ns): the clock git's writes are dated by. */
function fileSystemNow(engine: Engine): bigint {
  const trash = engine.store.reclaimTrash;
  fs.mkdirSync(trash, { recursive: true, mode: 0o700 });
  const clock = path.join(trash, 'clock');
  fs.rmSync(clock, { force: true });
  fs.writeFileSync(clock, '', { mode: 0o600 });
  return fs.statSync(clock, { bigint: true }).mtimeNs;
}

/** Removes the packs taken out (and what a crashed reclaim left): nothing git reads. */
function emptyTrash(engine: Engine): void {
  fs.rmSync(engine.store.reclaimTrash, { recursive: true, force: true });
}
