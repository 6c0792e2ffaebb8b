// What the rest of Rewind sees of a project's checkpoints (src/checkpoints/index.ts hands it
// out): Snapshotter, what a process that only takes checkpoints needs (SnapshotEngine,
// snapshotEngine.ts, behind it), and ProjectCheckpoints, the whole (CheckpointEngine,
// checkpointEngine.ts, which extends it). The shadow repo, its files and its git calls stay
// behind these interfaces.
import type { CurrentTree, SnapshotOptions, SnapshotResult } from './snapshot/engineTypes.js';
import type { BisectOptions, BisectResult } from './tools/bisect.js';
import type { PruneOptions, PruneResult } from './retention/applyRetention.js';
import type { RetentionPolicy } from './retention/retention.js';
import type { StoreReport } from './retention/storeReport.js';
import type { ForkResult } from './tools/fork.js';
import type { ForkBranchOptions, ForkBranchResult } from './tools/forkBranch.js';
import type { ExportedCheckpoints, ImportResult, TransferredCheckpoint } from './tools/transferTypes.js';
import type { RevertOptions, RevertPlan, RevertResult, RevertScope } from './tools/revert.js';
import type { SpanChange, StepDiff } from './tools/stepDiff.js';
import type { CheckpointRecord, SkippedFile } from './store/record.js';
import type { RepairResult } from './store/repairChain.js';
import type { RestorePreview } from './restore/planRestore.js';
import type { RedoPreview, RedoResult } from './restore/redo.js';
import type { PlanNow } from './restore/preview.js';
import type { Requester } from './restore/redoPoint.js';
import type { RestoreOptions, RestoreResult } from './restore/restore.js';

export type { StoreReport } from './retention/storeReport.js';

/**
 * A project's checkpoints as `rewind snapshot` and a hook with no app use them: taking one,
 * the list, the files now, and the store's upkeep and state; none of the parts above
 * snapshot (restore, retention, tools), so opening it loads none of them.
 */
export interface Snapshotter {
  /** The project's folder (real path). */
  readonly projectRoot: string;
  /** Where this project's checkpoints are kept (shown to users; never written by others). */
  readonly storeRoot: string;
  /** The folder in the store kept for the conversations of checkpoints (layer 2 writes it, never the engine). */
  readonly conversationsDir: string;
  /** Whether any checkpoint store exists yet for this project. */
  readonly initialized: boolean;
  /** Takes a checkpoint of the work tree now, under the project lock. */
  snapshot(options?: SnapshotOptions): Promise<SnapshotResult>;
  /** Every checkpoint, oldest first. */
  list(): CheckpointRecord[];
  /** The checkpoint with this id, or a UserError that says how to find one. */
  get(id: number): CheckpointRecord;
  /** The files as they are now, as a tree (what a restore starts from), and what changed since the newest checkpoint. */
  currentTree(options?: { signal?: AbortSignal }): Promise<CurrentTree>;
  /** Heals a damaged store and rebuilds a lost list; what it says, one line each. */
  recoverList(): Promise<string[]>;
  /** Repairs the chain after the project's own gc (cheap when nothing is marked). */
  maintain(): Promise<RepairResult | undefined>;
  /** The newest checkpoint a walk of the whole tree found the files equal to (0: none): a
   * checkpoint staged from changed paths (`fromChangedPaths`) up to it is confirmed. */
  scanConfirmedThrough(): number;
  /** Files the engine leaves out now (oversize, heavy, unreadable). */
  skippedNow(): SkippedFile[];
  /** Whether there is a restore to undo. */
  canUndo(): Promise<boolean>;
  /** The checkpoint the rewind an undo would undo took first (its files before it), if there is one. */
  undoPoint(): Promise<number | undefined>;
  /** What to tell the user about a restore that was cut off, if one was. */
  interruptedRestore(): string | undefined;
  /** The folders the newest restorable checkpoint holds (what a file watcher watches from the start). */
  folders(): Promise<string[]>;
  /** Which of these project-relative paths checkpoints leave out by the ignore rules. */
  ignored(paths: readonly string[]): Promise<Set<string>>;
  /** Changes whenever `ignored` may answer otherwise for a path not changed since. */
  ignoreStamp(): string;
  /** Disk usage of this project's store (as `du`: blocks on disk). */
  projectBytes(): Promise<number>;
}

/**
 * A project's checkpoints, as the rest of Rewind uses them: a Snapshotter's, and plan,
 * restore, undo a restore, retention and usage, and the tools on them.
 */
export interface ProjectCheckpoints extends Snapshotter {
  /** What restoring `id` would do from the files as they are now (the one plan every view shows). */
  plan(id: number, only?: readonly string[]): Promise<PlanNow>;
  /** The same plan from a work tree read before (the picker reads it once per opening). */
  planFrom(current: CurrentTree, id: number): Promise<RestorePreview>;
  /** `git diff-tree -r <format>` of exactly what a plan writes and deletes, from the tree it starts at. */
  planDiff(from: string, id: number, plan: RestorePreview, only: readonly string[], format: readonly string[]): Promise<Buffer>;
  restore(id: number, options?: RestoreOptions): Promise<RestoreResult>;
  /** Records the files as the last rewind left them, when exactly known, so that what is done next is a step of its own (restore/rewound.ts). */
  recordRewound(): Promise<void>;
  /** What taking back checkpoint `id`'s step (keeping the later ones) would do to the files now. */
  previewRevert(id: number, scope?: RevertScope): Promise<RevertPlan>;
  /** Takes back checkpoint `id`'s step and keeps the later ones (git's three-way merge), as an undoable restore. */
  revert(id: number, options?: RevertOptions): Promise<RevertResult>;
  /** Which restore `redo` would undo, and its plan (from `current`, a work tree read before, when given). */
  previewRedo(current?: CurrentTree): Promise<RedoPreview>;
  /** Undoes the last restore (`expected`: the redo point a shown plan was for). */
  redo(requester?: Requester, expected?: string): Promise<RedoResult>;
  /** Whether retention has anything to do now (cheap; see applyRetention.ts). */
  retentionDue(policy: RetentionPolicy): Promise<boolean>;
  /** Applies retention now, under the lock: drops what the policy says, reclaims the space. */
  prune(policy: RetentionPolicy, options?: PruneOptions): Promise<PruneResult>;
  /** The disk-usage view: this project's checkpoints and store, every project's, and what retention drops next. */
  report(policy: RetentionPolicy): Promise<StoreReport>;
  /** The first checkpoint where a test fails, each tested in a scratch folder, never the project. */
  bisect(options: BisectOptions): Promise<BisectResult>;
  /** Checkpoint `id`'s files in a new folder `dir`. */
  fork(id: number, dir: string): Promise<ForkResult>;
  /** Checkpoint `id` as one new commit on a new branch of the project's repository, checked out in a new linked worktree. */
  forkBranch(id: number, options: ForkBranchOptions): Promise<ForkBranchResult>;
  /** Checkpoints `from`..`to` as one git bundle that holds all they need, and their list entries (`rewind export`). */
  exportRange(from: number, to: number): Promise<ExportedCheckpoints>;
  /**
   * Adds an export's checkpoints this project does not have yet as its newest ones (`rewind
   * import`); the bundle is checked whole first, and `verified` runs before anything is written.
   */
  importCheckpoints(bundle: Buffer, entries: readonly TransferredCheckpoint[], where: string, verified?: () => void): Promise<ImportResult>;
  /** What checkpoint `id`'s own step changed (through the later checkpoint `through`), as `git diff-tree <format>`. */
  stepDiff(id: number, only: readonly string[], format: readonly string[], through?: number): Promise<StepDiff>;
  /** What changed from each pair's first tree to its second, in one git call. */
  spanChanges(pairs: readonly (readonly [string, string])[]): Promise<SpanChange[]>;
}
