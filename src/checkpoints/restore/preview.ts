// What a restore would do, worked out without changing anything: the diff from the files
// (as a tree) to the target, planned against the disk, every object it needs checked. The
// picker previews with it; the restore itself (restore.ts) plans the same way.
import type { Engine } from '../snapshot/engine.js';
import { GitError } from '../git/git.js';
import type { RawChange } from '../git/diffRaw.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { knownUnrestorable, unrestorable } from './errors.js';
import { requireKnownPaths } from './onlyPaths.js';
import { diffTrees, planRestore, type PlanStart, type RestorePreview } from './planRestore.js';

/** A plan and the tree of the files it starts from. */
export interface PlanNow {
  preview: RestorePreview;
  /** The tree of the files as they are now. */
  from: string;
}

/** Fails with "no longer restorable" unless every blob these writes read is in the store. */
export async function requireObjects(engine: Engine, id: number, oids: readonly string[]): Promise<void> {
  if (oids.length === 0) return;
  const checker = engine.repo.objectReader(false);
  try {
    const found = await Promise.all([...new Set(oids)].map((oid) => checker.read(oid)));
    if (found.some((object) => 'missing' in object)) throw unrestorable(id);
  } finally {
    await checker.close();
  }
}

/** The changes from `current` to the target, limited to `only`; unreadable objects mean the target is gone. */
export async function changesTo(engine: Engine, current: string, target: CheckpointRecord, only: readonly string[] | undefined): Promise<RawChange[]> {
  try {
    return await diffTrees(engine, current, target.tree, only);
  } catch (error) {
    if (error instanceof GitError) throw unrestorable(target.id, error);
    throw error;
  }
}

/** Checkpoint `id`, or the error that says it can no longer be restored. */
export function targetOf(engine: Engine, id: number): CheckpointRecord {
  const target = engine.get(id);
  if (whyUnrestorable(target) !== undefined) throw knownUnrestorable(target);
  return target;
}

/**
 * The plan of restoring `target` over the work tree `start` (the app's picker passes the
 * tree it read once). Needs no lock: it reads the store and the disk, and changes nothing.
 */
export async function planFrom(engine: Engine, target: CheckpointRecord, start: PlanStart, only: readonly string[] = [], undoneCreated?: ReadonlyMap<string, string>): Promise<RestorePreview> {
  const changes = await changesTo(engine, start.tree, target, only);
  return planRestore(engine, target, start, changes, undoneCreated);
}

/** What restoring checkpoint `id` would do from the files as they are now, and that tree. Changes nothing. */
export async function planNow(engine: Engine, id: number, only: readonly string[] = [], undoneCreated?: ReadonlyMap<string, string>): Promise<PlanNow> {
  return engine.locked('preview a restore', async () => {
    await requireKnownPaths(engine, targetOf(engine, id), only);
    const current = await engine.currentTreeLocked();
    return { preview: await planChecked(engine, id, current, only, undoneCreated), from: current.tree };
  });
}

/** planFrom for checkpoint `id` from a work tree read before (`current`), every object it writes checked to be there. */
export async function planChecked(engine: Engine, id: number, current: PlanStart, only: readonly string[] = [], undoneCreated?: ReadonlyMap<string, string>): Promise<RestorePreview> {
  const preview = await planFrom(engine, targetOf(engine, id), current, only, undoneCreated);
  await requireObjects(engine, id, preview.writes.map((write) => write.oid));
  return preview;
}
