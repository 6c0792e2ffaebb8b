import type { Engine } from '../snapshot/engine.js';
import { REVERT_TRIGGER, REWOUND_TRIGGER } from '../../shared/triggers.js';
import type { RawChange } from '../git/diffRaw.js';
import { GitError } from '../git/git.js';
import { diffTrees } from '../restore/planRestore.js';
import { treeWith } from '../restore/planDiff.js';
import { MissingObjectError } from '../restore/errors.js';
import { withScratch } from '../restore/staging.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { BugError, UserError } from '../../shared/errors.js';
import { reverseMerge, same, type Entry, type MergeConflict, type ReverseMerge } from './reverseMerge.js';

/** What taking the step back does to one path it settles (no conflict). */
export interface RevertChange {
  path: string;
  /** `restored`: back as before the step; `merged`: changed later too, merged line by line;
   * `deleted`: the step created it; `created`: the step deleted it. */
  how: 'restored' | 'merged' | 'deleted' | 'created';
}

/** A path that conflicts (see MergeConflict), and what `--conflicts markers` leaves in it. */
export interface RevertConflict {
  path: string;
  kind: MergeConflict['kind'];
  /** `markers`: git's conflict markers around each hunk; `as-now`: it stays as it is now;
   * `as-before`: it comes back as it was before the step. */
  withMarkers: 'markers' | 'as-now' | 'as-before';
  hunks: string[];
}

/** What reverting checkpoint `checkpoint`'s step would do to the files now. */
export interface RevertPlan {
  checkpoint: number;
  /** The checkpoint the step ends at, or null: the files now (the newest's step). */
  to: number | null;
  /** The paths it settles and changes (what `--conflicts keep` writes, and with no conflict, all of it). */
  changes: RevertChange[];
  conflicts: RevertConflict[];
}

/** A plan and the trees behind it. */
export interface RevertTrees {
  plan: RevertPlan;
  /** The files now with the settled paths taken back, the conflicted ones as they are now. */
  keep: string;
  /** The same with what `--conflicts markers` leaves in the conflicted ones. */
  markers: string;
}

export interface RevertScope {
  /** The last checkpoint the step takes in (a turn: its last step's, or its end); default: the checkpoint itself. */
  through?: number;
  /** Project-relative paths (files or folders) to take back; everything the step changed when empty. */
  only?: readonly string[];
}

/** Checkpoints folded into a step that only mark where it ended: the step ends AT them. */
const endMarks = new Set(['end', 'watch', REWOUND_TRIGGER, REVERT_TRIGGER]);

/**
 * The step of `id` (through `through`): its record and the checkpoint it ends at (null: the
 * files now). A step whose last folded checkpoint is the newest and an end mark (a turn's
 * `end`, a quiet `watch`) ends there, so edits made after it are never taken for the step's.
 */
function stepBounds(engine: Engine, id: number, through: number, nowAt: number | undefined): { record: CheckpointRecord; to: CheckpointRecord | null } {
  const record = engine.get(id);
  const why = whyUnrestorable(record);
  if (why) throw new UserError(`checkpoint #${id}'s step cannot be reverted: ${why}`);
  const records = engine.list().filter((entry) => nowAt === undefined || entry.id < nowAt);
  const index = records.findIndex((entry) => entry.id === Math.max(id, through));
  if (index < 0) throw new UserError(`checkpoint #${Math.max(id, through)} is not in the list: see \`rewind list\``);
  const to = records.slice(index + 1).find((entry) => !entry.unrestorable) ?? null;
  // The newest checkpoint an end mark folded into the step: the step ends there, not at the
  // files now (edits made after the agent finished are not its).
  const last = records[index];
  if (to === null && last && last.id > id && endMarks.has(last.trigger) && !last.unrestorable) return { record, to: last };
  return { record, to };
}

const under = (only: readonly string[]) => (file: string) => only.length === 0 || only.some((prefix) => file === prefix || file.startsWith(`${prefix}/`));

/**
 * What reverting checkpoint `id`'s step does to the files as they are in `now` (a tree): each
 * path the step changed (within `only`) taken back (reverseMerge.ts); no other path is ever
 * touched. Writes objects to the shadow repository only. `nowAt`: the checkpoint that holds
 * `now` (a revert's redo point), not a step's end. Caller holds the lock.
 */
export async function planRevert(engine: Engine, id: number, now: string, scope: RevertScope = {}, nowAt?: number): Promise<RevertTrees> {
  const { record, to } = stepBounds(engine, id, scope.through ?? id, nowAt);
  const after = to ? to.tree : now;
  const only = scope.only ?? [];
  try {
    // A file left out of either checkpoint (too big, heavy) is not the step's to take back.
    const leftOut = new Set([...record.skipped, ...(to?.skipped ?? [])].map((file) => file.path));
    // A name that is not UTF-8 cannot be named safely: such a file stays as it is (as in a restore).
    const step = (await diffTrees(engine, record.tree, after)).filter((change) => !change.undecodable && under(only)(change.path) && !leftOut.has(change.path));
    if (step.length === 0) {
      const where = only.length > 0 ? ` under ${only.map((file) => JSON.stringify(file)).join(', ')}` : '';
      throw new UserError(`the step of #${id} changed no files${where} (#${id} -> ${to ? `#${to.id}` : 'the files now'}): nothing to revert; see \`rewind show ${id}\``);
    }
    return await withScratch(engine, async (scratch) => {
      let merged = await reverseMerge(engine, { paths: await sidesOf(engine, step, after, now), beforeLabel: `before-#${id}` }, scratch);
      for (;;) {
        const trees = await treesOf(engine, now, merged, scratch);
        if (trees.culprits.size === 0) {
          const changes = trees.changed.map((entry): RevertChange => ({ path: entry.path, how: entry.how }));
          const conflicts = merged.conflicts.map((conflict): RevertConflict => ({ path: conflict.path, kind: conflict.kind, withMarkers: markerOutcome(conflict), hunks: conflict.hunks }));
          return { plan: { checkpoint: id, to: to?.id ?? null, changes, conflicts }, keep: trees.keep, markers: trees.markers };
        }
        merged = demoted(merged, trees.culprits);
      }
    });
  } catch (error) {
    if (error instanceof MissingObjectError || (error instanceof GitError && /bad object|not a valid object|unable to read|missing/i.test(error.stderr))) {
      throw new UserError(`checkpoint #${id}'s step cannot be reverted: the files it needs can no longer be read (${error.message})`, { cause: error });
    }
    throw error;
  }
}

/**
 * The keep and markers trees of `merged` over `now`, and the paths that would change more
 * than they say: a file where the files now have a folder, or the other way round, is
 * replaced whole by git's index (a folder's files go with it). Those paths are the culprits:
 * they become conflicts left as they are (demoted), so no path the plan does not name ever
 * changes.
 */
async function treesOf(engine: Engine, now: string, merged: ReverseMerge, scratch: string): Promise<{ keep: string; markers: string; changed: ReverseMerge['settled']; culprits: Set<string> }> {
  const changed = merged.settled.filter((entry) => !entry.unchanged);
  const marking = merged.conflicts.filter((conflict) => !same(conflict.marked, conflict.now));
  const keep = await treeApplying(engine, now, changed, scratch);
  const markers = await treeApplying(engine, keep, marking.map((conflict) => ({ path: conflict.path, result: conflict.marked })), scratch);
  const culprits = new Set<string>();
  for (const [tree, expected] of [
    [keep, changed.map((entry) => entry.path)],
    [markers, [...changed, ...marking].map((entry) => entry.path)],
  ] as const) {
    const allowed = new Set(expected);
    const stray = (await diffTrees(engine, now, tree)).map((change) => change.path).filter((file) => !allowed.has(file));
    for (const file of expected) if (stray.some((other) => other.startsWith(`${file}/`) || file.startsWith(`${other}/`))) culprits.add(file);
    if (stray.length > 0 && culprits.size === 0) throw new BugError(`a revert would change ${stray.join(', ')}, which the plan does not name`);
  }
  return { keep, markers, changed, culprits };
}

/** `merged` with each of `culprits` a conflict left as it is now (a file on one side, a folder on another). */
function demoted(merged: ReverseMerge, culprits: ReadonlySet<string>): ReverseMerge {
  const conflicts = merged.conflicts.map((conflict) => (culprits.has(conflict.path) ? { ...conflict, kind: 'other' as const, marked: conflict.now, hunks: [] } : conflict));
  const settled = merged.settled.filter((entry) => !culprits.has(entry.path));
  const more = merged.settled.filter((entry) => culprits.has(entry.path)).map((entry): MergeConflict => ({ path: entry.path, kind: 'other', marked: entry.now, now: entry.now, hunks: [] }));
  return { settled, conflicts: [...conflicts, ...more] };
}

const entryOf = (mode: string, oid: string): Entry | undefined => (/^0+$/.test(mode) ? undefined : { mode, oid });

/**
 * Each path the step changed as it was before the step and after it (from the step's own raw
 * diff) and now (after it, unless the diff from after the step to now says otherwise): two
 * tree diffs, whatever the number of paths.
 */
async function sidesOf(engine: Engine, step: readonly RawChange[], after: string, now: string): Promise<Map<string, { before?: Entry; after?: Entry; now?: Entry }>> {
  const since = after === now ? new Map<string, RawChange>() : new Map((await diffTrees(engine, after, now)).map((change) => [change.path, change]));
  return new Map(
    step.map((change) => {
      const a = entryOf(change.dstMode, change.dstOid);
      const later = since.get(change.path);
      const n = later ? entryOf(later.dstMode, later.dstOid) : a;
      return [change.path, { ...optional('before', entryOf(change.srcMode, change.srcOid)), ...optional('after', a), ...optional('now', n) }];
    }),
  );
}

function optional<K extends string>(key: K, entry: Entry | undefined): Partial<Record<K, Entry>> {
  return entry ? ({ [key]: entry } as Record<K, Entry>) : {};
}

function markerOutcome(conflict: MergeConflict): RevertConflict['withMarkers'] {
  if (conflict.hunks.length > 0) return 'markers';
  return same(conflict.marked, conflict.now) ? 'as-now' : 'as-before';
}

/** `base` with each path's result in place (absent: removed). */
async function treeApplying(engine: Engine, base: string, results: readonly { path: string; result: Entry | undefined }[], scratch: string): Promise<string> {
  if (results.length === 0) return base;
  const writes = results.flatMap((entry) => (entry.result ? [{ path: entry.path, mode: entry.result.mode, oid: entry.result.oid, creates: false }] : []));
  const deletes = results.filter((entry) => !entry.result).map((entry) => entry.path);
  return treeWith(engine, base, { writes, deletes, leftAlone: [] }, scratch);
}
