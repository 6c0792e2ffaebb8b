import type { RawChange } from '../git/diffRaw.js';
import type { Engine } from '../snapshot/engine.js';
import { diffTrees } from '../restore/planRestore.js';
import { treeWith } from '../restore/planDiff.js';
import { withScratch } from '../restore/staging.js';
import { entriesAt } from '../restore/treeEntries.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { UserError } from '../../shared/errors.js';
import { reverseMerge, type MergeConflict, type StageEntry } from './reverseMerge.js';

/** What taking the step back does to one path it settles (no conflict). */
export interface RevertChange {
  path: string;
  /** `restored`: back as before the step; `merged`: later steps changed it too, merged line by
   * line; `deleted`: the step created it; `created`: the step deleted it. */
  how: 'restored' | 'merged' | 'deleted' | 'created';
}

/**
 * A path the step and a later step (or an edit since) both changed so that git cannot
 * settle it. `content`: the same lines (the hunks shown); `binary`: a file git cannot merge
 * line by line (binary, a symlink); `created-then-changed`: the step created it and it was
 * changed since (taking the step back would delete that work); `changed-then-deleted`: the
 * step changed it and it was deleted since; `deleted-then-created`: the step deleted it and it
 * was created again since; `other`: anything else git could not settle (renames on both sides).
 */
export interface RevertConflict {
  path: string;
  kind: 'content' | 'binary' | 'created-then-changed' | 'changed-then-deleted' | 'deleted-then-created' | 'other';
  /** What `--conflicts markers` leaves in it. */
  withMarkers: 'markers' | 'as-now' | 'as-before';
  /** The conflicting hunks as git marks them (text conflicts): `<<<<<<< now` … `>>>>>>> before-#N`. */
  hunks: string[];
}

/** What reverting checkpoint `checkpoint`'s step would do to the files now. */
export interface RevertPlan {
  checkpoint: number;
  /** The checkpoint the step ends at, or null: the files now (the newest's step). */
  to: number | null;
  /** The paths it settles, as `--conflicts keep` writes them (and with no conflict, all of it). */
  changes: RevertChange[];
  conflicts: RevertConflict[];
}

/** A plan and the trees behind it. */
export interface RevertTrees {
  plan: RevertPlan;
  /** The files now, the step's paths settled, the conflicted ones as they are now. */
  keep: string;
  /** The same, with git's conflict markers (or the side it keeps) in the conflicted ones. */
  markers: string;
}

export interface RevertScope {
  /** Up to the checkpoint after this one (a turn: its last step); default: the checkpoint itself. */
  through?: number;
  /** Project-relative paths (files or folders) to take back; everything the step changed when empty. */
  only?: readonly string[];
}

/** The step of `id` (through `through`): its record and the tree it ends at (null: the files now). */
function stepBounds(engine: Engine, id: number, through: number, nowAt: number | undefined): { record: CheckpointRecord; to: CheckpointRecord | null } {
  const record = engine.get(id);
  const why = whyUnrestorable(record);
  if (why) throw new UserError(`checkpoint #${id}'s step cannot be reverted: ${why}`);
  const records = engine.list().filter((entry) => nowAt === undefined || entry.id < nowAt);
  const index = records.findIndex((entry) => entry.id === Math.max(id, through));
  const to = records.slice(index + 1).find((entry) => !entry.unrestorable) ?? null;
  return { record, to };
}

/**
 * What reverting checkpoint `id`'s step does to the files as they are in `now` (a tree):
 * git's three-way merge of the step taken back (reverseMerge.ts), limited to `only`. Writes
 * objects to the shadow repository only. `nowAt`: the checkpoint that holds `now` (a revert's
 * redo point), not a step's end. Caller holds the lock.
 */
export async function planRevert(engine: Engine, id: number, now: string, scope: RevertScope = {}, nowAt?: number): Promise<RevertTrees> {
  const { record, to } = stepBounds(engine, id, scope.through ?? id, nowAt);
  const after = to ? to.tree : now;
  const only = scope.only ?? [];
  const stepChanges = await diffTrees(engine, record.tree, after, only);
  if (stepChanges.length === 0) {
    const where = only.length > 0 ? ` under ${only.map((file) => JSON.stringify(file)).join(', ')}` : '';
    throw new UserError(`the step of #${id} changed no files${where} (#${id} -> ${to ? `#${to.id}` : 'the files now'}): nothing to revert; see \`rewind show ${id}\``);
  }
  const merged = await reverseMerge(engine, { before: record.tree, after, now, beforeLabel: `before-#${id}` });
  const inScope = (file: string) => only.length === 0 || only.some((prefix) => file === prefix || file.startsWith(`${prefix}/`));
  const conflicted = merged.conflicts.filter((conflict) => inScope(conflict.path));
  // The merge within `only`: the files now, with the merge's paths there.
  const markers = only.length === 0 ? merged.tree : await treeTaking(engine, now, merged.tree, only);
  const keep = conflicted.length === 0 ? markers : await treeTaking(engine, markers, now, conflicted.map((conflict) => conflict.path));
  const settled = await diffTrees(engine, now, keep);
  const laterChanged = new Set((await diffTrees(engine, after, now, settled.map((change) => change.path))).map((change) => change.path));
  const changes = settled.map((change): RevertChange => ({ path: change.path, how: change.status === 'A' ? 'created' : change.status === 'D' ? 'deleted' : laterChanged.has(change.path) ? 'merged' : 'restored' }));
  const conflicts = await describeConflicts(engine, merged.tree, conflicted);
  return { plan: { checkpoint: id, to: to?.id ?? null, changes, conflicts }, keep, markers };
}

/** `base` with the paths under `paths` as they are in `from` (present or absent). */
async function treeTaking(engine: Engine, base: string, from: string, paths: readonly string[]): Promise<string> {
  const changes: RawChange[] = await diffTrees(engine, base, from, paths);
  if (changes.length === 0) return base;
  const writes = changes.filter((change) => change.status !== 'D').map((change) => ({ path: change.path, mode: change.dstMode, oid: change.dstOid, creates: change.status === 'A' }));
  const deletes = changes.filter((change) => change.status === 'D' || change.status === 'T').map((change) => change.path);
  return withScratch(engine, (scratch) => treeWith(engine, base, { writes, deletes, leftAlone: [] }, scratch));
}

function kindOf(conflict: MergeConflict, merged: StageEntry | undefined, hunks: readonly string[]): RevertConflict['kind'] {
  const { after, now, before } = conflict;
  if (after && now && before) return hunks.length > 0 ? 'content' : 'binary';
  if (after && now && !before) return 'created-then-changed';
  if (after && before && !now) return 'changed-then-deleted';
  if (!after && now && before) return hunks.length > 0 || merged?.oid !== now.oid ? 'content' : 'deleted-then-created';
  return 'other';
}

/** Each conflict's kind, what markers would leave, and its hunks (read from the merged blob). */
async function describeConflicts(engine: Engine, mergedTree: string, conflicts: readonly MergeConflict[]): Promise<RevertConflict[]> {
  if (conflicts.length === 0) return [];
  const inMerged = new Map<string, StageEntry>((await entriesAt(engine.repo, mergedTree, conflicts.map((conflict) => conflict.path))).map((entry) => [entry.path, { mode: entry.mode, oid: entry.oid }]));
  const described: RevertConflict[] = [];
  for (const conflict of conflicts) {
    const merged = inMerged.get(conflict.path);
    const hunks = merged && merged.mode !== '120000' && merged.mode !== '160000' ? markedHunks(await blobText(engine, merged.oid)) : [];
    const withMarkers = !merged ? 'as-now' : hunks.length > 0 ? 'markers' : merged.oid === conflict.now?.oid && merged.mode === conflict.now?.mode ? 'as-now' : 'as-before';
    described.push({ path: conflict.path, kind: kindOf(conflict, merged, hunks), withMarkers: !merged && conflict.now ? 'as-now' : withMarkers, hunks });
  }
  return described;
}

async function blobText(engine: Engine, oid: string): Promise<string> {
  return (await engine.repo.git(['cat-file', 'blob', oid])).stdout.toString('utf8');
}

/** The regions git marked: from a `<<<<<<< ` line through its `>>>>>>> ` line. */
export function markedHunks(content: string): string[] {
  const hunks: string[] = [];
  let open: string[] | undefined;
  for (const line of content.split('\n')) {
    if (line.startsWith('<<<<<<< ')) open = [];
    if (open) open.push(line);
    if (open && line.startsWith('>>>>>>> ')) {
      hunks.push(open.join('\n'));
      open = undefined;
    }
  }
  return hunks;
}
