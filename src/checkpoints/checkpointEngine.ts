import { logged, type LogFields } from '../shared/runLog.js';
import type { CurrentTree, OpenOptions } from './snapshot/engineTypes.js';
import { diffOfPlan } from './restore/planDiff.js';
import type { RestorePreview } from './restore/planRestore.js';
import { previewRedo, redoLast, type RedoPreview, type RedoResult } from './restore/redo.js';
import { planFrom, planNow, type PlanNow } from './restore/preview.js';
import type { Requester } from './restore/redoPoint.js';
import { restoreCheckpoint, type RestoreOptions, type RestoreResult } from './restore/restore.js';
import { recordRewound } from './restore/rewound.js';
import { applyRetention, retentionDue, type PruneOptions, type PruneResult } from './retention/applyRetention.js';
import type { RetentionPolicy } from './retention/retention.js';
import { storeReport, type StoreReport } from './retention/storeReport.js';
import { bisectCheckpoints, type BisectOptions, type BisectResult } from './tools/bisect.js';
import { forkCheckpoint, type ForkResult } from './tools/fork.js';
import { forkBranch, type ForkBranchOptions, type ForkBranchResult } from './tools/forkBranch.js';
import { exportCheckpoints } from './tools/exportBundle.js';
import { importCheckpoints } from './tools/importBundle.js';
import type { ExportedCheckpoints, ImportResult, TransferredCheckpoint } from './tools/transferTypes.js';
import { previewRevert, revertStep, type RevertOptions, type RevertPlan, type RevertResult, type RevertScope } from './tools/revert.js';
import { spanChanges, stepDiff, type SpanChange, type StepDiff } from './tools/stepDiff.js';
import type { ProjectCheckpoints } from './projectCheckpoints.js';
import { SnapshotEngine } from './snapshotEngine.js';

export type { CurrentTree, EngineSettings, OpenOptions, Progress, ProgressListener, SnapshotOptions, SnapshotResult, StepChanges } from './snapshot/engineTypes.js';

/**
 * A project's checkpoints, whole: SnapshotEngine's (the store, the lock, snapshots, the list)
 * and what the engine's parts above snapshot do (restore, redo, revert, retention, the
 * tools), each method handing its work to the part that owns it. The rest of Rewind sees it
 * as ProjectCheckpoints; the parts see it as Engine.
 */
export class CheckpointEngine extends SnapshotEngine implements ProjectCheckpoints {
  static override open(options: OpenOptions): CheckpointEngine {
    return new CheckpointEngine(options);
  }

  plan(id: number, only: readonly string[] = []): Promise<PlanNow> {
    return planNow(this, id, only);
  }

  planFrom(current: CurrentTree, id: number): Promise<RestorePreview> {
    return planFrom(this, this.get(id), current);
  }

  planDiff(from: string, id: number, plan: RestorePreview, only: readonly string[], format: readonly string[]): Promise<Buffer> {
    return diffOfPlan(this, from, this.get(id).tree, plan, only, format);
  }

  restore(id: number, options: RestoreOptions = {}): Promise<RestoreResult> {
    return logged(this.env, 'restore', { id, project: this.project.root, only: options.only?.length || undefined }, () => restoreCheckpoint(this, id, options), restoreFields);
  }

  async recordRewound(): Promise<void> {
    await recordRewound(this);
  }

  previewRevert(id: number, scope: RevertScope = {}): Promise<RevertPlan> {
    return previewRevert(this, id, scope);
  }

  revert(id: number, options: RevertOptions = {}): Promise<RevertResult> {
    return logged(this.env, 'revert', { id, project: this.project.root, only: options.only?.length || undefined }, () => revertStep(this, id, options), (result) => ({ ...restoreFields(result.restore), conflicts: result.plan.conflicts.length }));
  }

  previewRedo(current?: CurrentTree): Promise<RedoPreview> {
    return previewRedo(this, current);
  }

  redo(requester: Requester = {}, expected?: string): Promise<RedoResult> {
    return logged(this.env, 'redo', { project: this.project.root }, () => redoLast(this, requester, expected), (result) => ({ ...restoreFields(result), redoPoint: result.before, undid: result.undid }));
  }

  retentionDue(policy: RetentionPolicy): Promise<boolean> {
    return retentionDue(this, policy, this.now());
  }

  prune(policy: RetentionPolicy, options: PruneOptions = {}): Promise<PruneResult> {
    return logged(this.env, 'retention', { project: this.project.root, days: policy.days, maxGb: policy.maxGb, dryRun: options.dryRun === true }, () => applyRetention(this, policy, this.now(), options), (result) => ({
      byAge: result.byAge.length,
      bySize: result.bySize.length,
      bytesBefore: result.bytesBefore,
      bytesAfter: result.bytesAfter,
    }));
  }

  report(policy: RetentionPolicy): Promise<StoreReport> {
    return storeReport(this, policy);
  }

  bisect(options: BisectOptions): Promise<BisectResult> {
    return bisectCheckpoints(this, options);
  }

  fork(id: number, dir: string): Promise<ForkResult> {
    return forkCheckpoint(this, id, dir);
  }

  forkBranch(id: number, options: ForkBranchOptions): Promise<ForkBranchResult> {
    return forkBranch(this, id, options);
  }

  exportRange(from: number, to: number): Promise<ExportedCheckpoints> {
    return exportCheckpoints(this, from, to);
  }

  importCheckpoints(bundle: Buffer, entries: readonly TransferredCheckpoint[], where: string, verified?: () => void): Promise<ImportResult> {
    return logged(this.env, 'import', { project: this.project.root, checkpoints: entries.length }, () => importCheckpoints(this, bundle, entries, where, verified), (result) => ({ added: result.added.length, already: result.already }));
  }

  stepDiff(id: number, only: readonly string[], format: readonly string[], through?: number): Promise<StepDiff> {
    return stepDiff(this, id, only, format, through);
  }

  spanChanges(pairs: readonly (readonly [string, string])[]): Promise<SpanChange[]> {
    return spanChanges(this, pairs);
  }
}

/** What the run log says of a restore: counts, never paths. */
function restoreFields(result: RestoreResult): LogFields {
  return { written: result.changed.length, deleted: result.deleted.length, leftAlone: result.leftAlone.length, redoPoint: result.redo };
}
