// Retention (DESIGN.md "Storage"): on open, never in a snapshot's hot path, under the lock.
// Checkpoints older than checkpoint_retention_days go; if the store is still over
// checkpoint_max_gb, the oldest half of the rest goes too; then the objects are reclaimed.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../snapshot/engine.js';
import { diskUsage } from '../store/diskUsage.js';
import { clearCrashLeftovers, clearStaleGitLocks, gcRunning } from '../store/maintenance.js';
import type { CheckpointRecord } from '../store/record.js';
import { dropCheckpoints, finishInterruptedDrop } from './pruneStore.js';
import { repairChain } from '../store/repairChain.js';
import { readRedoStack } from '../store/redoStack.js';
import { cleanStaleStaging } from '../restore/staging.js';
import { nextExpiry, oldestHalf, overCap, protectedIds, tooOld, type RetentionPolicy } from './retention.js';
import { rememberSizeDrop, sizeDropHeld } from './sizeDrop.js';
import { messageOf } from '../../shared/errors.js';
import { interruptedJournal } from '../restore/journal.js';

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

/** A gc of a big store takes long; one stopped halfway has reclaimed nothing. */
const reclaimTimeoutMs = 20 * 60 * 1000;

async function waitForBackgroundGc(engine: Engine): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (gcRunning(engine.repo) && Date.now() < deadline) await sleep(50);
}

/** Reclaims what no checkpoint needs any more (`git gc --prune=now`; every write to the shadow runs under the lock we hold). */
async function reclaim(engine: Engine): Promise<void> {
  await waitForBackgroundGc(engine);
  const gc = () => engine.repo.storeGit(['gc', '--quiet', '--prune=now'], { timeoutMs: reclaimTimeoutMs });
  try {
    await gc();
  } catch {
    // Objects borrowed from the project's own store were pruned there: take the checkpoints
    // that needed them out of the chain (repairChain), then gc can walk it.
    await repairChain(engine.repo, engine.log);
    await gc();
  }
}

/** Drops `ids` and reclaims their space; a reclaim that fails is said in `result.problem` (the drop stands). */
async function drop(engine: Engine, ids: number[], options: PruneOptions, result: PruneResult): Promise<void> {
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
  try {
    await reclaim(engine);
  } catch (error) {
    result.problem = `the space of the dropped checkpoints was not reclaimed (${messageOf(error)}): \`rewind prune\` tries again`;
  }
}

function nothingDone(dryRun: boolean, bytes: number): PruneResult {
  return { dryRun, byAge: [], bySize: [], bytesBefore: bytes, bytesAfter: bytes, cleaned: [] };
}

/** Applies the retention policy now to a store that exists; the caller holds the lock. */
async function applyRetentionLocked(engine: Engine, policy: RetentionPolicy, now: number, options: PruneOptions): Promise<PruneResult> {
  const dryRun = options.dryRun === true;
  const bytesBefore = await diskUsage(engine.store.root);
  const result = nothingDone(dryRun, bytesBefore);
  if (interruptedJournal(engine.store.journal)) return { ...result, skipped: 'a restore was cut off: finish it first (`rewind restore` says how)' };
  if (!dryRun) {
    // A background `git gc --auto` (started without the lock) is waited out first: it packs refs and objects too.
    await waitForBackgroundGc(engine);
    result.cleaned = [...clearStaleGitLocks(engine.repo), ...clearCrashLeftovers(engine.repo)];
    cleanStaleStaging(engine);
    await finishInterruptedDrop(engine.repo, engine.log);
  }
  const records = engine.list();
  const keep = protectedIds(records, await readRedoStack(engine.repo), now, options.keep);
  result.byAge = tooOld(records, keep, policy, now);
  if (dryRun) {
    const rest = records.filter((record) => !result.byAge.includes(record.id));
    // The size after the age drop is not known without making it: the cap is checked against the size now.
    if (overCap(bytesBefore, policy)) {
      if (sizeDropHeld(engine.store.sizeDrop, bytesBefore)) result.sizeDropHeld = true;
      else result.bySize = oldestHalf(rest, keep);
    }
    return result;
  }
  if (result.byAge.length > 0) await drop(engine, result.byAge, options, result);
  let bytes = await diskUsage(engine.store.root);
  if (overCap(bytes, policy) && sizeDropHeld(engine.store.sizeDrop, bytes)) result.sizeDropHeld = true;
  else if (overCap(bytes, policy) && result.problem === undefined) {
    // What no checkpoint needs any more goes before any checkpoint does (the age drop reclaimed already).
    if (result.byAge.length === 0) {
      await reclaim(engine);
      bytes = await diskUsage(engine.store.root);
    }
    result.bySize = overCap(bytes, policy) ? oldestHalf(engine.list(), keep) : [];
    if (result.bySize.length > 0) {
      await drop(engine, result.bySize, options, result);
      const after = await diskUsage(engine.store.root);
      rememberSizeDrop(engine.store.sizeDrop, overCap(after, policy) ? { before: bytes, after } : undefined);
    }
  } else if (!overCap(bytes, policy)) rememberSizeDrop(engine.store.sizeDrop, undefined);
  if (result.byAge.length + result.bySize.length === 0 && options.reclaimAlways) {
    await reclaim(engine);
    options.onDropped?.(engine.list());
  }
  result.bytesAfter = await diskUsage(engine.store.root);
  return result;
}

/** Applies the retention policy now, under the project lock (a project without checkpoints is left as it is: no store is made). */
export async function applyRetention(engine: Engine, policy: RetentionPolicy, now: number, options: PruneOptions = {}): Promise<PruneResult> {
  if (!engine.initialized) return nothingDone(options.dryRun === true, 0);
  return engine.locked('apply retention', () => applyRetentionLocked(engine, policy, now, options));
}
