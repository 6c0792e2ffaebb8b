// The engine's one door: everything outside src/checkpoints/ reaches checkpoints through
// this module (lint enforces it). Nothing here or behind it is Ink, a pty or an agent.
import { CheckpointEngine } from './checkpointEngine.js';
import { SnapshotEngine } from './snapshotEngine.js';
import type { OpenOptions } from './snapshot/engineTypes.js';
import { readCheckpointList, type CheckpointList } from './checkpointList.js';
import type { RetentionPolicy } from './retention/retention.js';
import type { ProjectCheckpoints, Snapshotter } from './projectCheckpoints.js';
import { engineSettings } from './settings.js';
import type { RewindConfig } from '../config/schema.js';
import { rewindHome } from '../config/paths.js';
import { clock } from '../shared/seams.js';

export type { ProjectCheckpoints, Snapshotter, StoreReport } from './projectCheckpoints.js';
export type { CheckpointList } from './checkpointList.js';
export { listStores, removeLeftovers, removeStore, whyNotRemovable, type StoreEntry } from './retention/storeCatalog.js';
export type { PruneOptions, PruneResult } from './retention/applyRetention.js';
export type { RetentionPolicy } from './retention/retention.js';
export type { EngineSettings, OpenOptions, Progress, ProgressListener, SnapshotOptions, SnapshotResult, StepChanges, CurrentTree } from './snapshot/engineTypes.js';
export type { ChangeSummary, ChangeExamples } from './snapshot/changeSummary.js';
export type { CheckpointRecord, ConversationRef, ImportedFrom, SkippedFile } from './store/record.js';
export type { RepairResult } from './store/repairChain.js';
export type { BisectEvent, BisectOptions, BisectResult, BisectStep, ScanBreak, Verdict } from './tools/bisect.js';
export type { ForkResult } from './tools/fork.js';
export type { ForkBranchOptions, ForkBranchResult, ParentFrom } from './tools/forkBranch.js';
export type { CheckpointOrigin, ExportedCheckpoints, ImportResult, TransferredCheckpoint } from './tools/transferTypes.js';
export type { SpanChange, StepDiff } from './tools/stepDiff.js';
export type { LeftAlone, PlannedWrite, RestorePlan } from './restore/plan.js';
export { plannedPaths } from './restore/plan.js';
export type { RestorePreview } from './restore/planRestore.js';
export type { PlanNow } from './restore/preview.js';
export type { Requester } from './restore/redoPoint.js';
export type { RestoreOptions, RestoreResult } from './restore/restore.js';
export type { RedoPreview, RedoResult } from './restore/redo.js';
export { StaleUndoError } from './restore/redo.js';
export type { RevertChange, RevertConflict, RevertOptions, RevertPlan, RevertResult, RevertScope } from './tools/revert.js';
export { RevertConflictsError } from './tools/revertConflicts.js';
export { whyUnrestorable } from './store/record.js';
export { requireGit } from './git/git.js';
export { gitVersionLine } from './git/gitVersion.js';
export { engineSettings } from './settings.js';

/**
 * Opens a project's checkpoints (the nearest git work tree around `cwd`, or `cwd`).
 * Touches nothing on disk: the store is made by the first snapshot.
 */
export function openProjectCheckpoints(options: OpenOptions): ProjectCheckpoints {
  return CheckpointEngine.open(options);
}

/** What a caller may add when it opens the engine: the home folder allowed, progress, the lock's wait. */
export type OpenMore = Pick<OpenOptions, 'allowHome' | 'onProgress' | 'lockWaitMs' | 'onLockWait'>;

/** The options every opening of a project's checkpoints gets: the settings of `config`, the store home and the clock of `env`. */
function openOptions(cwd: string, config: RewindConfig, env: NodeJS.ProcessEnv, more: OpenMore): OpenOptions {
  return { cwd, settings: engineSettings(config), home: rewindHome(env), env, now: clock(), ...more };
}

/**
 * The one way the app and the commands open a project's checkpoints, whole: the settings of
 * `config`, the store home and the clock of `env`. Touches nothing on disk.
 */
export function openEngine(cwd: string, config: RewindConfig, env: NodeJS.ProcessEnv, more: OpenMore = {}): ProjectCheckpoints {
  return openProjectCheckpoints(openOptions(cwd, config, env, more));
}

/**
 * openEngine for a process that only takes checkpoints (`rewind snapshot`, a hook with no
 * app): the same opening, the engine without the parts above snapshot (restore, retention,
 * tools), so such a process loads none of them. Touches nothing on disk.
 */
export function openSnapshotEngine(cwd: string, config: RewindConfig, env: NodeJS.ProcessEnv, more: OpenMore = {}): Snapshotter {
  return SnapshotEngine.open(openOptions(cwd, config, env, more));
}

/**
 * The checkpoint list of the project around `cwd`, read from its store's files alone (no
 * engine, no lock, no scan of the work tree: `rewind list` at once), or undefined when the
 * store needs the engine's work first (recovery, repair, a restore cut off, retention due by
 * `policy`): openEngine then. Creates nothing.
 */
export function readProjectCheckpointList(cwd: string, policy: RetentionPolicy, env: NodeJS.ProcessEnv, more: Pick<OpenMore, 'allowHome'> = {}): Promise<CheckpointList | undefined> {
  return readCheckpointList({ cwd, home: rewindHome(env), env, policy, now: clock()(), ...more });
}
