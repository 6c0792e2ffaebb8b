import path from 'node:path';
import type { Checkpoints, CurrentTree, SnapshotOptions, SnapshotResult } from './checkpoints.js';
import { bisectCheckpoints, type BisectOptions, type BisectResult } from './tools/bisect.js';
import { diskUsage } from './store/diskUsage.js';
import { applyRetention, retentionDue, type PruneOptions, type PruneResult } from './retention/applyRetention.js';
import { nextExpiry, overCap, protectedIds, tooOld, type RetentionPolicy } from './retention/retention.js';
import { sizeDropHeld } from './retention/sizeDrop.js';
import { listStores, type StoreEntry } from './retention/storeCatalog.js';
import { forkCheckpoint, type ForkResult } from './tools/fork.js';
import { spanChanges, stepDiff, type SpanChange, type StepDiff } from './tools/stepDiff.js';
import { splitNul } from './git/git.js';
import { gitText, shadowGitClient } from './store/gitClient.js';
import type { CheckpointRecord, SkippedFile } from './store/record.js';
import type { RepairResult } from './store/repairChain.js';
import { interruptedJournal, interruptedMessage } from './restore/journal.js';
import { diffOfPlan } from './restore/planDiff.js';
import type { RestorePreview } from './restore/planRestore.js';
import { previewRedo, redoLast, type RedoPreview, type RedoResult } from './restore/redo.js';
import { readRedoStack } from './store/redoStack.js';
import { planFrom, planNow, restoreCheckpoint, type PlanNow, type Requester, type RestoreOptions, type RestoreResult } from './restore/restore.js';

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

/**
 * A project's checkpoints, as the rest of Rewind uses them: snapshot, list, plan, restore,
 * undo a restore, usage. The shadow repo, its files and its git calls stay behind it.
 */
export class ProjectCheckpoints {
  readonly #engine: Checkpoints;

  constructor(engine: Checkpoints) {
    this.#engine = engine;
  }

  /** The project's folder (real path). */
  get projectRoot(): string {
    return this.#engine.project.root;
  }

  /** Where this project's checkpoints are kept (shown to users; never written by others). */
  get storeRoot(): string {
    return this.#engine.store.root;
  }

  /** The folder in the store kept for the conversations of checkpoints (layer 2 writes it, never the engine). */
  get conversationsDir(): string {
    return this.#engine.store.conv;
  }

  /** Whether any checkpoint store exists yet for this project. */
  get initialized(): boolean {
    return this.#engine.initialized;
  }

  snapshot(options?: SnapshotOptions): Promise<SnapshotResult> {
    return this.#engine.snapshot(options);
  }

  /** Every checkpoint, oldest first. */
  list(): CheckpointRecord[] {
    return this.#engine.list();
  }

  /** The checkpoint with this id, or a UserError that says how to find one. */
  get(id: number): CheckpointRecord {
    return this.#engine.get(id);
  }

  /** The files as they are now, as a tree (what a restore starts from), and what changed since the newest checkpoint. */
  currentTree(): Promise<CurrentTree> {
    return this.#engine.currentTree();
  }

  /** Heals a damaged store and rebuilds a lost list (see Checkpoints.recoverList); what it says, one line each. */
  recoverList(): Promise<string[]> {
    return this.#engine.recoverList();
  }

  /** Repairs the chain after the project's own gc (cheap when nothing is marked). */
  maintain(): Promise<RepairResult | undefined> {
    return this.#engine.maintain();
  }

  /** Files the engine leaves out now (oversize, heavy, unreadable). */
  skippedNow(): SkippedFile[] {
    return this.#engine.skippedNow();
  }

  /** What restoring `id` would do from the files as they are now (the one plan every view shows). */
  plan(id: number, only: readonly string[] = []): Promise<PlanNow> {
    return planNow(this.#engine, id, only);
  }

  /** The same plan from a work tree read before (the picker reads it once per opening). */
  planFrom(current: CurrentTree, id: number): Promise<RestorePreview> {
    return planFrom(this.#engine, this.get(id), current);
  }

  /** `git diff-tree -r <format>` of exactly what a plan writes and deletes, from the tree it starts at. */
  planDiff(from: string, id: number, plan: RestorePreview, only: readonly string[], format: readonly string[]): Promise<Buffer> {
    return diffOfPlan(this.#engine, from, this.get(id).tree, plan, only, format);
  }

  restore(id: number, options: RestoreOptions = {}): Promise<RestoreResult> {
    return restoreCheckpoint(this.#engine, id, options);
  }

  /** Which restore `redo` would undo, and its plan. */
  previewRedo(): Promise<RedoPreview> {
    return previewRedo(this.#engine);
  }

  /** Undoes the last restore (`expected`: the redo point a shown plan was for). */
  redo(requester: Requester = {}, expected?: string): Promise<RedoResult> {
    return redoLast(this.#engine, requester, expected);
  }

  /** Whether there is a restore to undo. */
  async canUndo(): Promise<boolean> {
    return this.#engine.initialized && (await readRedoStack(this.#engine.repo)).length > 0;
  }

  /** What to tell the user about a restore that was cut off, if one was. */
  interruptedRestore(): string | undefined {
    const journal = interruptedJournal(this.#engine.store.journal);
    return journal ? interruptedMessage(journal) : undefined;
  }

  /** The folders the newest restorable checkpoint holds (what a file watcher watches from the start). */
  async folders(): Promise<string[]> {
    const newest = this.#engine.list().findLast((record) => !record.unrestorable);
    if (!newest) return [];
    return splitNul(await gitText(await shadowGitClient(this.#engine.repo), ['ls-tree', '-r', '-d', '--name-only', '-z', newest.tree]));
  }

  /** Which of these project-relative paths checkpoints leave out by the ignore rules. */
  async ignored(paths: readonly string[]): Promise<Set<string>> {
    if (paths.length === 0 || !this.#engine.initialized) return new Set();
    const result = await this.#engine.repo.git(['check-ignore', '-z', '--stdin'], { input: `${paths.join('\0')}\0`, okCodes: [0, 1] });
    return new Set(splitNul(result.stdout));
  }

  /** Disk usage of this project's store (as `du`: blocks on disk). */
  projectBytes(): Promise<number> {
    return diskUsage(this.#engine.store.root);
  }


  /** Whether retention has anything to do now (cheap; see applyRetention.ts). */
  retentionDue(policy: RetentionPolicy): Promise<boolean> {
    return retentionDue(this.#engine, policy, this.#engine.now());
  }

  /** Applies retention now, under the lock: drops what the policy says, reclaims the space. */
  prune(policy: RetentionPolicy, options: PruneOptions = {}): Promise<PruneResult> {
    return applyRetention(this.#engine, policy, this.#engine.now(), options);
  }

  /** The disk-usage view: this project's checkpoints and store, every project's, and what retention drops next. */
  async report(policy: RetentionPolicy): Promise<StoreReport> {
    const root = this.#engine.store.root;
    const records = this.#engine.list();
    const now = this.#engine.now();
    const projects = await listStores(path.dirname(path.dirname(root)));
    const mine = projects.find((entry) => entry.store === root);
    const projectBytes = mine?.bytes ?? (await diskUsage(root));
    const keep = protectedIds(records, await readRedoStack(this.#engine.repo), now);
    const expiry = nextExpiry(records, keep, policy);
    const dueNow = tooOld(records, keep, policy, now).length;
    const ends = (record: CheckpointRecord | undefined) => (record ? { id: record.id, time: record.time } : null);
    return {
      project: this.#engine.project.root,
      store: root,
      checkpoints: records.length,
      projectBytes,
      allBytes: projects.reduce((sum, entry) => sum + entry.bytes, 0),
      projects,
      orphans: projects.filter((entry) => entry.project !== '' && !entry.exists),
      oldest: ends(records[0]),
      newest: ends(records.at(-1)),
      retention: { days: policy.days, maxGb: policy.maxGb, dueNow, nextAt: dueNow === 0 && expiry !== undefined ? new Date(expiry).toISOString() : null, overCap: overCap(projectBytes, policy), sizeDropHeld: overCap(projectBytes, policy) && sizeDropHeld(this.#engine.store.sizeDrop, projectBytes) },
    };
  }

  /** The first checkpoint where a test fails, each tested in a scratch folder, never the project (bisect.ts). */
  bisect(options: BisectOptions): Promise<BisectResult> {
    return bisectCheckpoints(this.#engine, options);
  }

  /** Checkpoint `id`'s files in a new folder `dir` (fork.ts). */
  fork(id: number, dir: string): Promise<ForkResult> {
    return forkCheckpoint(this.#engine, id, dir);
  }

  /** What checkpoint `id`'s own step changed (through the later checkpoint `through`), as `git diff-tree <format>` (stepDiff.ts). */
  stepDiff(id: number, only: readonly string[], format: readonly string[], through?: number): Promise<StepDiff> {
    return stepDiff(this.#engine, id, only, format, through);
  }

  /** What changed from each pair's first tree to its second, in one git call (stepDiff.ts). */
  spanChanges(pairs: readonly (readonly [string, string])[]): Promise<SpanChange[]> {
    return spanChanges(this.#engine, pairs);
  }
}
