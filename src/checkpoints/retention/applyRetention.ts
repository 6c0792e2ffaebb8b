// Retention: on open, never in a snapshot's hot path. Checkpoints older than
// checkpoint_retention_days go; if the store is still over checkpoint_max_gb, the oldest
// half of the rest goes too; then the objects are reclaimed. Neither holds the project lock
// for long (pruneStore.ts, reclaim.ts): a step's snapshot never waits long for retention.
import fs from 'node:fs';
import type { Engine } from '../snapshot/engine.js';
import { diskUsage } from '../store/diskUsage.js';
import { clearCrashLeftovers, clearStaleGitLocks, takeGcLock } from '../store/maintenance.js';
import type { CheckpointRecord } from '../store/record.js';
import { applyRechain, dropFromList, dropUnderWay, rechainKept, reconcileSome, type Rechained } from './pruneStore.js';
import { repairChain } from '../store/repairChain.js';
import { readRedoStack } from '../store/redoStack.js';
import { cleanStaleStaging } from '../restore/staging.js';
import { nextExpiry, oldestHalf, overCap, protectedIds, tooOld, type RetentionPolicy } from './retention.js';
import { rememberSizeDrop, sizeDropHeld } from './sizeDrop.js';
import { messageOf } from '../../shared/errors.js';
import { interruptedJournal } from '../restore/journal.js';
import { markReclaim, reclaimSince, type ReclaimMark } from './reclaim.js';

export interface PruneOptions {
  /** Say what would go, change nothing. */
  dryRun?: boolean;
  /** Checkpoints to keep this time whatever their age (the ones the command at hand uses). */
  keep?: readonly number[];
  /** Reclaim objects even when nothing is dropped (`rewind prune`). */
  reclaimAlways?: boolean;
  /** After checkpoints are dropped: frees what only they used outside the engine (their
   * conversations), given the records kept. */
  onDropped?: (kept: readonly CheckpointRecord[]) => void;
}

export interface PruneResult {
  dryRun: boolean;
  /** Dropped (or, in a dry run, to be dropped) for their age, then to bring the store under the cap. */
  byAge: number[];
  bySize: number[];
  bytesBefore: number;
  bytesAfter: number;
  /** Leftovers of crashed processes that were removed (stale locks, temporary packs). */
  cleaned: string[];
  /** Why nothing was done, when something stood in the way (a restore to finish first). */
  skipped?: string;
  /** Over the cap, but the last size drop freed little: none this time (sizeDrop.ts). */
  sizeDropHeld?: boolean;
  /** What went wrong after checkpoints were dropped (their space not reclaimed). */
  problem?: string;
}

/** How often retentionDue measures the store against its size cap (a walk of the store: not on every open). */
const sizeCheckEveryMs = 60 * 60 * 1000;

/**
 * Whether retention has anything to do now, cheaply (read on every open): something old
 * enough to go, a drop a crash cut short, or (at most once an hour) a store over its cap.
 */
export async function retentionDue(engine: Pick<Engine, 'initialized' | 'store' | 'repo' | 'list'>, policy: RetentionPolicy, now: number): Promise<boolean> {
  if (!engine.initialized || interruptedJournal(engine.store.journal)) return false;
  if (fs.existsSync(engine.store.pruning)) return true;
  const records = engine.list();
  const keep = protectedIds(records, await readRedoStack(engine.repo), now);
  const expiry = nextExpiry(records, keep, policy);
  if (expiry !== undefined && expiry <= now) return true;
  let checked = 0;
  try {
    checked = fs.statSync(engine.store.retentionChecked).mtimeMs;
  } catch {
    // Never checked.
  }
  if (Math.abs(now - checked) < sizeCheckEveryMs) return false;
  const over = overCap(await diskUsage(engine.store.root), policy);
  try {
    fs.writeFileSync(engine.store.retentionChecked, '', { mode: 0o600 });
    fs.utimesSync(engine.store.retentionChecked, now / 1000, now / 1000);
  } catch {
    // A store this user may not write: it is measured again next time.
  }
  return over;
}

/** How long retention waits for a gc already at work on the store (the background one, another reclaim). */
const gcWaitMs = 60_000;

/** One pass of retention over a store, holding the shadow's gc lock (no other drop or gc runs meanwhile). */
interface Pass {
  engine: Engine;
  policy: RetentionPolicy;
  now: number;
  options: PruneOptions;
  result: PruneResult;
}

/** How long one hold of the lock moving refs aims to last: the batch (one `git update-ref --stdin`) shrinks or grows to it. */
const refsHoldMs = 200;

/** Reclaims what no checkpoint needs since `mark` (taken now, under the lock, when not given). */
async function reclaim(pass: Pass, mark?: ReclaimMark): Promise<void> {
  const { engine } = pass;
  await reclaimSince(engine, mark ?? (await engine.locked('apply retention', async () => markReclaim(engine))));
}

/** Takes `ids` out of the list, under the lock the caller holds; returns the records kept. */
function dropLocked(pass: Pass, ids: readonly number[]): CheckpointRecord[] {
  const kept = dropFromList(pass.engine.repo, pass.engine.log, new Set(ids));
  if (ids.length > 0) pass.options.onDropped?.(kept);
  return kept;
}

/**
 * Finishes a drop dropLocked began, the lock held only for short steps (pruneStore.ts): the
 * kept commits recreated without it, the list moved onto them, the refs a batch at a time.
 * Returns the mark the reclaim starts from.
 */
async function finishDrop(pass: Pass, kept: readonly CheckpointRecord[]): Promise<ReclaimMark> {
  const { engine } = pass;
  let rechained: Rechained;
  try {
    rechained = await rechainKept(engine.repo, kept);
  } catch {
    // A kept checkpoint's tree is gone (the project's own gc pruned what it borrowed): mark
    // those unrestorable and out of the chain (repairChain), then the rest can be rebuilt.
    const rest = await engine.locked('apply retention', async () => {
      await repairChain(engine.repo, engine.log);
      return engine.list();
    });
    rechained = await rechainKept(engine.repo, rest);
  }
  await engine.locked('apply retention', () => applyRechain(engine.repo, engine.log, rechained));
  let batch = 100;
  for (let left = Infinity; left > 0; ) {
    const before = left;
    let took = 0;
    left = await engine.locked('apply retention', async () => {
      const started = performance.now();
      const more = await reconcileSome(engine.repo, engine.log, batch);
      took = performance.now() - started;
      return more;
    });
    if (left >= before) throw new Error(`the refs of the checkpoints do not follow the list (${left} change(s) left)`);
    batch = took > refsHoldMs ? Math.max(10, Math.floor(batch / 2)) : took < refsHoldMs / 2 ? Math.min(1000, batch * 2) : batch;
  }
  return engine.locked('apply retention', async () => markReclaim(engine));
}

/** Reclaims the space of a drop; one that fails is said in `result.problem` (the drop stands). */
async function reclaimDropped(pass: Pass, mark: ReclaimMark): Promise<void> {
  try {
    await reclaim(pass, mark);
  } catch (error) {
    pass.result.problem = `the space of the dropped checkpoints was not reclaimed (${messageOf(error)}): \`rewind prune\` tries again`;
  }
}

function nothingDone(dryRun: boolean, bytes: number): PruneResult {
  return { dryRun, byAge: [], bySize: [], bytesBefore: bytes, bytesAfter: bytes, cleaned: [] };
}

/** The checkpoints kept whatever their age now, read under the lock. */
async function keptNow(pass: Pass): Promise<Set<number>> {
  return protectedIds(pass.engine.list(), await readRedoStack(pass.engine.repo), pass.now, pass.options.keep);
}

/** What a dry run says: what would go now, changing nothing (`bytes`: the store's size, measured without the lock). */
async function previewLocked(engine: Engine, policy: RetentionPolicy, now: number, options: PruneOptions, bytes: number): Promise<PruneResult> {
  const result = nothingDone(true, bytes);
  if (interruptedJournal(engine.store.journal)) return { ...result, skipped: 'a restore was cut off: finish it first (`rewind restore` says how)' };
  const records = engine.list();
  const keep = protectedIds(records, await readRedoStack(engine.repo), now, options.keep);
  result.byAge = tooOld(records, keep, policy, now);
  const rest = records.filter((record) => !result.byAge.includes(record.id));
  // The size after the age drop is not known without making it: the cap is checked against the size now.
  if (overCap(bytes, policy)) {
    if (sizeDropHeld(engine.store.sizeDrop, bytes)) result.sizeDropHeld = true;
    else result.bySize = oldestHalf(rest, keep);
  }
  return result;
}

/** The leftovers of crashed processes cleaned, then the age drop begun, under the lock; the records kept, if a drop is to be finished. */
async function dropByAgeLocked(pass: Pass): Promise<CheckpointRecord[] | undefined> {
  const { engine, result } = pass;
  if (interruptedJournal(engine.store.journal)) {
    result.skipped = 'a restore was cut off: finish it first (`rewind restore` says how)';
    return undefined;
  }
  // Holding the gc lock, no gc of anyone runs: their locks and temporary packs are stale.
  result.cleaned = [...clearStaleGitLocks(engine.repo, false), ...clearCrashLeftovers(engine.repo, false)];
  cleanStaleStaging(engine);
  result.byAge = tooOld(engine.list(), await keptNow(pass), pass.policy, pass.now);
  // A drop a crash cut off is finished with this one (or alone).
  return result.byAge.length > 0 || dropUnderWay(engine.repo) ? dropLocked(pass, result.byAge) : undefined;
}

/** Then, if the store is still over its cap once what no checkpoint needs is reclaimed, the oldest half of the rest. */
async function dropBySize(pass: Pass): Promise<void> {
  const { engine, policy, result } = pass;
  let bytes = await diskUsage(engine.store.root);
  if (!overCap(bytes, policy)) {
    rememberSizeDrop(engine.store.sizeDrop, undefined);
    return;
  }
  if (sizeDropHeld(engine.store.sizeDrop, bytes)) {
    result.sizeDropHeld = true;
    return;
  }
  if (result.problem !== undefined) return;
  // What no checkpoint needs any more goes before any checkpoint does (the age drop reclaimed already).
  if (result.byAge.length === 0) {
    await reclaim(pass);
    bytes = await diskUsage(engine.store.root);
  }
  if (!overCap(bytes, policy)) return;
  let kept: CheckpointRecord[] = [];
  result.bySize = await engine.locked('apply retention', async () => {
    const ids = oldestHalf(engine.list(), await keptNow(pass));
    if (ids.length > 0) kept = dropLocked(pass, ids);
    return ids;
  });
  if (result.bySize.length === 0) return;
  await reclaimDropped(pass, await finishDrop(pass, kept));
  const after = await diskUsage(engine.store.root);
  rememberSizeDrop(engine.store.sizeDrop, overCap(after, policy) ? { before: bytes, after } : undefined);
}

/** Applies the retention policy now to a store that exists, holding the gc lock. */
async function applyNow(pass: Pass): Promise<PruneResult> {
  const { engine, options, result } = pass;
  const kept = await engine.locked('apply retention', () => dropByAgeLocked(pass));
  if (result.skipped) return result;
  if (kept) {
    const mark = await finishDrop(pass, kept);
    if (result.byAge.length > 0) await reclaimDropped(pass, mark);
  }
  await dropBySize(pass);
  if (result.byAge.length + result.bySize.length === 0 && options.reclaimAlways) {
    await reclaim(pass);
    await engine.locked('apply retention', async () => options.onDropped?.(engine.list()));
  }
  result.bytesAfter = await diskUsage(engine.store.root);
  return result;
}

/**
 * Applies the retention policy now (a project without checkpoints is left as it is: no
 * store is made). The project lock is held for short steps only; snapshots go on between
 * them (pruneStore.ts, reclaim.ts). Another process's gc or retention still at work after
 * gcWaitMs: nothing is done this time (`skipped`).
 */
export async function applyRetention(engine: Engine, policy: RetentionPolicy, now: number, options: PruneOptions = {}): Promise<PruneResult> {
  if (!engine.initialized) return nothingDone(options.dryRun === true, 0);
  if (options.dryRun) {
    const bytes = await diskUsage(engine.store.root);
    return engine.locked('preview retention', () => previewLocked(engine, policy, now, options, bytes));
  }
  const releaseGc = await takeGcLock(engine.repo, gcWaitMs);
  const result = nothingDone(false, await diskUsage(engine.store.root));
  if (!releaseGc) return { ...result, skipped: "a git gc of this project's checkpoints is still running; try again once it is done" };
  try {
    return await applyNow({ engine, policy, now, options, result });
  } finally {
    releaseGc();
  }
}
