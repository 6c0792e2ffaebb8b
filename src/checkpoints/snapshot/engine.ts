import type { Project } from '../git/project.js';
import type { CheckpointLog } from '../store/checkpointLog.js';
import type { CheckpointRecord, SkippedFile } from '../store/record.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import type { StorePaths } from '../store/store.js';
import type { CurrentTree, ProgressListener, SnapshotOptions, SnapshotResult } from './engineTypes.js';

/**
 * The engine as the parts above snapshot (restore, retention, tools) see it: the project,
 * its store, shadow repository and list, the project lock, and snapshots taken under it.
 * SnapshotEngine (snapshotEngine.ts) implements it, and so CheckpointEngine, which extends it.
 */
export interface Engine {
  readonly project: Project;
  readonly store: StorePaths;
  readonly repo: ShadowRepo;
  readonly log: CheckpointLog;
  readonly onProgress: ProgressListener | undefined;
  readonly now: () => number;
  /** Whether the store exists yet (the first snapshot makes it). */
  readonly initialized: boolean;
  list(): CheckpointRecord[];
  get(id: number): CheckpointRecord;
  /** Runs `work` holding the project lock. */
  locked<T>(purpose: string, work: () => Promise<T>): Promise<T>;
  /** A snapshot taken while the lock is already held. */
  snapshotLocked(options?: SnapshotOptions): Promise<SnapshotResult>;
  currentTree(): Promise<CurrentTree>;
  currentTreeLocked(): Promise<CurrentTree>;
  /** What the newest snapshot left out (too big, heavy). */
  skippedNow(): SkippedFile[];
  /** Drops the newest checkpoint, `id`, while the lock is held (a restore that changed nothing). */
  dropNewestLocked(id: number): Promise<void>;
}
