// Retention: on open, never in a snapshot's hot path. Checkpoints older than
// checkpoint_retention_days go; if the store is still over checkpoint_max_gb, the oldest
// half of the rest goes too; then the objects are reclaimed. The drops hold the project
// lock (list, refs and chain: no work that grows with the files); the reclaim does not,
// but for short slices (reclaim.ts), so a step's snapshot never waits long for retention.
import fs from 'node:fs';
import type { Engine } from '../snapshot/engine.js';
import { diskUsage } from '../store/diskUsage.js';
import { clearCrashLeftovers, clearStaleGitLocks, gcRunning, takeGcLock } from '../store/maintenance.js';
import type { CheckpointRecord } from '../store/record.js';
import { dropCheckpoints, finishInterruptedDrop } from './pruneStore.js';
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
export async function retentionDue(engine: Engine, policy: RetentionPolicy, now: number): Promise<boolean> {
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

/** What one pass may do to the store: reclaim (it holds the shadow's gc lock) or not (a gc of another still ran). */
interface Pass {
  engine: Engine;
  policy: RetentionPolicy;
  now: number;
  options: PruneOptions;
  result: PruneResult;
  ownsGc: boolean;
}

/** Reclaims what no checkpoint needs since `mark` (taken now, under the lock, when not given). */
async function reclaim(pass: Pass, mark?: ReclaimMark): Promise<void> {
  if (!pass.ownsGc) throw new Error('a git gc of the store was still running');
  const { engine } = pass;
  await reclaimSince(engine, mark ?? (await engine.locked('apply retention', () => markReclaim(engine))));
}

/** Drops `ids` while the lock is held; returns the mark their reclaim starts from (none without the gc lock: no reclaim then). */
async function dropLocked(pass: Pass, ids: number[]): Promise<ReclaimMark | undefined> {
  const { engine, options } = pass;
  let kept: CheckpointRecord[];
  try {
    ({ kept } = await dropCheckpoints(engine.repo, engine.log, new Set(ids)));
  } catch {
    // A kept checkpoint's tree is gone (the project's own gc pruned what it borrowed): mark
    // those unrestorable and out of the chain (repairChain), then the rest can be rebuilt.
    await repairChain(engine.repo, engine.log);
    ({ kept } = await dropCheckpoints(engine.repo, engine.log, new Set(ids)));
  }
  options.onDropped?.(kept);
  if (!pass.ownsGc) return undefined;
  try {
    return await markReclaim(engine);
  } catch {
    // The drop stands; the reclaim marks again, and says what fails (reclaimDropped).
    return undefined;
  }
}

/** Reclaims the space of a drop; one that fails is said in `result.problem` (the drop stands). */
async function reclaimDropped(pass: Pass, mark: ReclaimMark | undefined): Promise<void> {
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

/** The leftovers of crashed processes cleaned, then the age drop, under the lock; the drop's mark. */
async function dropByAgeLocked(pass: Pass): Promise<ReclaimMark | undefined> {
  const { engine, result } = pass;
  if (interruptedJournal(engine.store.journal)) {
    result.skipped = 'a restore was cut off: finish it first (`rewind restore` says how)';
    return undefined;
  }
  // Holding the gc lock, no gc of anyone runs: their locks and temporary packs are stale.
  const gcLive = !pass.ownsGc && gcRunning(engine.repo);
  result.cleaned = [...clearStaleGitLocks(engine.repo, gcLive), ...clearCrashLeftovers(engine.repo, gcLive)];
  cleanStaleStaging(engine);
  await finishInterruptedDrop(engine.repo, engine.log);
  result.byAge = tooOld(engine.list(), await keptNow(pass), pass.policy, pass.now);
  return result.byAge.length > 0 ? dropLocked(pass, result.byAge) : undefined;
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
  let mark: ReclaimMark | undefined;
  result.bySize = await engine.locked('apply retention', async () => {
    const ids = oldestHalf(engine.list(), await keptNow(pass));
    if (ids.length > 0) mark = await dropLocked(pass, ids);
    return ids;
  });
  if (result.bySize.length === 0) return;
  await reclaimDropped(pass, mark);
  const after = await diskUsage(engine.store.root);
  rememberSizeDrop(engine.store.sizeDrop, overCap(after, policy) ? { before: bytes, after } : undefined);
}

/** Applies the retention policy now to a store that exists, holding the gc lock if `ownsGc`. */
async function applyNow(pass: Pass): Promise<PruneResult> {
  const { engine, options, result } = pass;
  const mark = await engine.locked('apply retention', () => dropByAgeLocked(pass));
  if (result.skipped) return result;
  if (result.byAge.length > 0) await reclaimDropped(pass, mark);
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
 * store is made). The project lock is held for the drops and the slices of the reclaim
 * only; snapshots go on between them (reclaim.ts says why none loses an object).
 */
export async function applyRetention(engine: Engine, policy: RetentionPolicy, now: number, options: PruneOptions = {}): Promise<PruneResult> {
  if (!engine.initialized) return nothingDone(options.dryRun === true, 0);
  if (options.dryRun) {
    const bytes = await diskUsage(engine.store.root);
    return engine.locked('preview retention', () => previewLocked(engine, policy, now, options, bytes));
  }
  const releaseGc = await takeGcLock(engine.repo, gcWaitMs);
  try {
    const result = nothingDone(false, await diskUsage(engine.store.root));
    return await applyNow({ engine, policy, now, options, result, ownsGc: releaseGc !== undefined });
  } finally {
    releaseGc?.();
  }
}
