// Which checkpoints retention drops (DESIGN.md "Storage": retention on open). Pure: the
// store's records, its redo stack and the time in; ids out. pruneStore.ts does the dropping.
import type { CheckpointRecord } from '../store/record.js';

/** The retention settings of config.json. */
export interface RetentionPolicy {
  /** Checkpoints older than this many days go; 0 turns the age limit off (the size cap still holds). */
  days: number;
  /** If the store is still bigger than this (GB) after that, the oldest half of the rest goes. */
  maxGb: number;
}

/** A restore newer than this can always be undone: the checkpoint its redo point pins is kept. */
export const redoProtectionMs = 60 * 60 * 1000;

const dayMs = 24 * 60 * 60 * 1000;

/** A redo point as retention sees it: the checkpoint it goes back to, and the one its restore put back. */
export interface RedoPin {
  checkpoint: number;
  restored?: number;
}

/**
 * Checkpoints retention never drops: the newest (the next snapshot continues the chain and
 * its ids from it), `keep` (what the command at hand is about to use), and for each restore
 * of the last hour the checkpoint `rewind redo` goes back to and the one it put back.
 */
export function protectedIds(records: readonly CheckpointRecord[], redo: readonly RedoPin[], now: number, keep: readonly number[] = []): Set<number> {
  const protect = new Set<number>(keep);
  const newest = records.at(-1);
  if (newest) protect.add(newest.id);
  const byId = new Map(records.map((record) => [record.id, record]));
  for (const point of redo) {
    const record = byId.get(point.checkpoint);
    if (!record || now - Date.parse(record.time) >= redoProtectionMs) continue;
    protect.add(point.checkpoint);
    if (point.restored !== undefined) protect.add(point.restored);
  }
  return protect;
}

/**
 * When a checkpoint entered this store (ms): when it was taken, or for one `rewind import`
 * brought in, when it was imported (a session handed over from weeks ago is not dropped on
 * arrival; and the list's order stays the order of these times).
 */
export function keptSince(record: Pick<CheckpointRecord, 'time' | 'imported'>): number {
  return Date.parse(record.imported?.at ?? record.time);
}

/** The time before which checkpoints are too old (undefined when age drops nothing: 0 days). */
export function ageCutoff(policy: RetentionPolicy, now: number): number | undefined {
  return policy.days > 0 ? now - policy.days * dayMs : undefined;
}

/** The checkpoints kept longer than `checkpoint_retention_days` (keptSince), oldest first. */
export function tooOld(records: readonly CheckpointRecord[], keep: ReadonlySet<number>, policy: RetentionPolicy, now: number): number[] {
  const cutoff = ageCutoff(policy, now);
  if (cutoff === undefined) return [];
  return records.filter((record) => !keep.has(record.id) && keptSince(record) < cutoff).map((record) => record.id);
}

/** The oldest half of `records` (what goes when the store is over `checkpoint_max_gb`), protected ones aside. */
export function oldestHalf(records: readonly CheckpointRecord[], keep: ReadonlySet<number>): number[] {
  return records
    .slice(0, Math.floor(records.length / 2))
    .filter((record) => !keep.has(record.id))
    .map((record) => record.id);
}

/** Whether `bytes` exceed the policy's size cap (whatever the age limit: 0 days turns off only that). */
export function overCap(bytes: number, policy: RetentionPolicy): boolean {
  return policy.maxGb > 0 && bytes > policy.maxGb * 1024 ** 3;
}

/** When the oldest checkpoint that age can drop will be old enough (ms), if there is one. */
export function nextExpiry(records: readonly CheckpointRecord[], keep: ReadonlySet<number>, policy: RetentionPolicy): number | undefined {
  if (policy.days <= 0) return undefined;
  const oldest = records.find((record) => !keep.has(record.id));
  return oldest ? keptSince(oldest) + policy.days * dayMs : undefined;
}
