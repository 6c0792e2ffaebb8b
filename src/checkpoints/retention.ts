// Which checkpoints retention drops (DESIGN.md "Storage": retention on open). Pure: the
// store's records, its redo stack and the time in; ids out. pruneStore.ts does the dropping.
import type { CheckpointRecord } from './record.js';

/** The retention settings of config.json. */
export interface RetentionPolicy {
  /** Checkpoints older than this many days go; 0 keeps every one. */
  days: number;
  /** If the store is still bigger than this (GB) after that, the oldest half of the rest goes. */
  maxGb: number;
}

/** A restore newer than this can always be undone: the checkpoint its redo point pins is kept. */
export const redoProtectionMs = 60 * 60 * 1000;

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Checkpoints retention never drops: the newest (the next snapshot continues the chain and
 * its ids from it) and those that redo points of the last hour pin.
 */
export function protectedIds(records: readonly CheckpointRecord[], redoCheckpoints: readonly number[], now: number): Set<number> {
  const keep = new Set<number>();
  const newest = records.at(-1);
  if (newest) keep.add(newest.id);
  const byId = new Map(records.map((record) => [record.id, record]));
  for (const id of redoCheckpoints) {
    const record = byId.get(id);
    if (record && now - Date.parse(record.time) < redoProtectionMs) keep.add(id);
  }
  return keep;
}

/** The time before which checkpoints are too old (undefined when age drops nothing: 0 days). */
export function ageCutoff(policy: RetentionPolicy, now: number): number | undefined {
  return policy.days > 0 ? now - policy.days * dayMs : undefined;
}

/** The checkpoints older than `checkpoint_retention_days`, oldest first. */
export function tooOld(records: readonly CheckpointRecord[], keep: ReadonlySet<number>, policy: RetentionPolicy, now: number): number[] {
  const cutoff = ageCutoff(policy, now);
  if (cutoff === undefined) return [];
  return records.filter((record) => !keep.has(record.id) && Date.parse(record.time) < cutoff).map((record) => record.id);
}

/** The oldest half of `records` (what goes when the store is over `checkpoint_max_gb`), protected ones aside. */
export function oldestHalf(records: readonly CheckpointRecord[], keep: ReadonlySet<number>): number[] {
  return records
    .slice(0, Math.floor(records.length / 2))
    .filter((record) => !keep.has(record.id))
    .map((record) => record.id);
}

/** Whether `bytes` exceed the policy's size cap. */
export function overCap(bytes: number, policy: RetentionPolicy): boolean {
  return policy.maxGb > 0 && bytes > policy.maxGb * 1024 ** 3;
}

/** When the oldest checkpoint that age can drop will be old enough (ms), if there is one. */
export function nextExpiry(records: readonly CheckpointRecord[], keep: ReadonlySet<number>, policy: RetentionPolicy): number | undefined {
  if (policy.days <= 0) return undefined;
  const oldest = records.find((record) => !keep.has(record.id));
  return oldest ? Date.parse(oldest.time) + policy.days * dayMs : undefined;
}
