// The disk-usage view of `/checkpoints` and `rewind checkpoints`.
import path from 'node:path';
import type { Engine } from '../snapshot/engine.js';
import { diskUsage } from '../store/diskUsage.js';
import type { CheckpointRecord } from '../store/record.js';
import { readRedoStack } from '../store/redoStack.js';
import { nextExpiry, overCap, protectedIds, tooOld, type RetentionPolicy } from './retention.js';
import { sizeDropHeld } from './sizeDrop.js';
import { listStores, type StoreEntry } from './storeCatalog.js';

/** What `/checkpoints` and `rewind checkpoints` show. */
export interface StoreReport {
  project: string;
  store: string;
  checkpoints: number;
  projectBytes: number;
  allBytes: number;
  /** Every project's store, biggest first. */
  projects: StoreEntry[];
  /** Stores whose project folder no longer exists. */
  orphans: StoreEntry[];
  oldest: { id: number; time: string } | null;
  newest: { id: number; time: string } | null;
  retention: {
    days: number;
    maxGb: number;
    /** Checkpoints old enough to go at the next open. */
    dueNow: number;
    /** When the oldest checkpoint that can go will be old enough (ISO), if none is yet. */
    nextAt: string | null;
    /** Whether the store is over maxGb (the oldest half goes at the next open, unless held). */
    overCap: boolean;
    /** Over maxGb, but the last size drop freed little: none goes until the store grows (sizeDrop.ts). */
    sizeDropHeld: boolean;
  };
}

/** This project's checkpoints and store, every project's, and what retention drops next. */
export async function storeReport(engine: Engine, policy: RetentionPolicy): Promise<StoreReport> {
  const root = engine.store.root;
  const records = engine.list();
  const now = engine.now();
  const projects = await listStores(path.dirname(path.dirname(root)));
  const mine = projects.find((entry) => entry.store === root);
  const projectBytes = mine?.bytes ?? (await diskUsage(root));
  const keep = protectedIds(records, await readRedoStack(engine.repo), now);
  const expiry = nextExpiry(records, keep, policy);
  const dueNow = tooOld(records, keep, policy, now).length;
  const ends = (record: CheckpointRecord | undefined) => (record ? { id: record.id, time: record.time } : null);
  return {
    project: engine.project.root,
    store: root,
    checkpoints: records.length,
    projectBytes,
    allBytes: projects.reduce((sum, entry) => sum + entry.bytes, 0),
    projects,
    orphans: projects.filter((entry) => entry.project !== '' && !entry.exists),
    oldest: ends(records[0]),
    newest: ends(records.at(-1)),
    retention: { days: policy.days, maxGb: policy.maxGb, dueNow, nextAt: dueNow === 0 && expiry !== undefined ? new Date(expiry).toISOString() : null, overCap: overCap(projectBytes, policy), sizeDropHeld: overCap(projectBytes, policy) && sizeDropHeld(engine.store.sizeDrop, projectBytes) },
  };
}
