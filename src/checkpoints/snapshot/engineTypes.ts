// The engine's option and result types (src/checkpoints/index.ts exports them).
import type { ConversationRef, CheckpointRecord } from '../store/record.js';
import type { ChangeExamples, ChangeSummary } from './changeSummary.js';
import type { ProgressReport } from '../../shared/progress.js';

/** The settings of config.json that the engine uses. */
export interface EngineSettings {
  checkpointMaxFileMb: number;
  checkpointExclude: readonly string[];
  /** Patterns of files the project ignores that are checkpointed all the same (config checkpoint_include; none when absent). */
  checkpointInclude?: readonly string[];
  gcEvery: number;
  checkpointWarnGb: number;
}

export interface OpenOptions {
  cwd: string;
  settings: EngineSettings;
  home: string;
  env?: NodeJS.ProcessEnv;
  allowHome?: boolean;
  /** How long to wait for another process holding the project lock (ms, default 30 s). */
  lockWaitMs?: number;
  /** Told how a long task is going (the engine draws nothing: a progress line is the caller's). */
  onProgress?: ProgressListener;
  /** Told once when a command waits for another process holding the project lock (who, how long at most). */
  onLockWait?: (holder: string, waitMs: number) => void;
  /** The clock checkpoints are stamped and aged by (ms since the epoch; tests move it). */
  now?: () => number;
}

/** How far a snapshot or a restore has got (shared/progress.ts: the one shape of it). */
export type Progress = ProgressReport;

export type ProgressListener = (progress: Progress) => void;

export interface SnapshotOptions {
  label?: string;
  trigger?: string;
  session?: string | null;
  agent?: string | null;
  /** The agent's own session id (from its hook payload), when it gave one. */
  agentSession?: string | null;
  conversation?: ConversationRef | null;
  /** Start the background walk for heavy files afterwards (default true). */
  backgroundScan?: boolean;
  /** No new entry when the files are as the newest checkpoint holds them (the app's own
   * triggers: an Enter or a burst of changes that changed nothing). */
  onlyIfChanged?: boolean;
  /** Also diff the new tree against this tree, in the same git process. */
  diffTo?: string;
  /** Only these project-relative paths (files or folders) can have changed since the newest
   * checkpoint (the app's watcher saw them change): the add stages them and walks nothing
   * else. The caller answers for that promise; the checkpoint is marked `fromChangedPaths`
   * until a full scan confirms it (`currentTree` finding nothing changed). Undefined: a walk of the whole tree. */
  paths?: readonly string[];
  /** Called once the snapshot's git runs (the caller starts its own processes then, beside
   * the walk, rather than before it). Not called when the snapshot fails before that. */
  whileRunning?: () => void;
  /** The label from what the step changed (the app's file-change bursts): the commit's
   * message keeps `label`, the list shows this. */
  describe?: (changes: StepChanges) => string;
}

/** What a checkpoint's step changed, for describing it. */
export interface StepChanges {
  /** By kind; undefined when unknown (the first checkpoint, an unreadable previous one). */
  summary?: ChangeSummary;
  /** The paths (at most 100). */
  paths: readonly string[];
  /** A few paths of each kind (at most 5 each), when the summary is known. */
  examples?: ChangeExamples;
}

export interface CurrentTree {
  tree: string;
  /** Files that differ from the newest checkpoint (null: no checkpoint, or unreadable). */
  changedSinceNewest: number | null;
  /** Which (the first 100), as a record's changedPaths; empty with no checkpoint. */
  changedPathsSinceNewest: string[];
  /** Nested repositories and submodules (gitlinks) in the work tree. */
  nested: string[];
}

export interface SnapshotResult {
  /** The new checkpoint, or with onlyIfChanged and nothing changed, the newest one. */
  record: CheckpointRecord;
  /** True when onlyIfChanged found nothing changed and added no entry. */
  unchanged?: boolean;
  /** True when only the paths given (SnapshotOptions.paths) were staged; false when the whole tree was walked. */
  fromChangedPaths: boolean;
  /** The raw diff to `diffTo`, when asked for (undefined: it could not be read). */
  toTarget?: Buffer;
  /** One-line notices for the user (the big-project warning, say). */
  warnings: string[];
}

