// The engine a checkpoint-taking process needs (`rewind snapshot`, a hook with no app):
// opening a project's store, the project lock, snapshots, the list and the store's state.
// The parts above snapshot (restore, retention, tools) are CheckpointEngine's, which extends
// this class (checkpointEngine.ts): a process that only takes checkpoints loads none of them.
import fs from 'node:fs';
import { UserError } from '../shared/errors.js';
import { logged } from '../shared/runLog.js';
import { withLock } from '../os/lock.js';
import { findProject, type Project } from './git/project.js';
import { projectGitEnv } from './git/gitEnv.js';
import { CheckpointLog } from './store/checkpointLog.js';
import { diskUsage } from './store/diskUsage.js';
import type { CheckpointRecord, SkippedFile } from './store/record.js';
import { readRedoStack } from './store/redoStack.js';
import { listBehindRefs, rebuildLog } from './store/rebuildLog.js';
import { repairChain, repairMarker, type RepairResult } from './store/repairChain.js';
import { removeDeadScratch } from './store/scratchFolders.js';
import { ShadowRepo } from './store/shadowRepo.js';
import { foldersOfNewest, ignoredAmong, ignoreStamp } from './store/shadowQueries.js';
import { locateStore, type StorePaths } from './store/store.js';
import { explainStoreError } from './store/storeErrors.js';
import { healStore, listNeedsRecovery } from './store/storeHealth.js';
import { readState } from './store/storeState.js';
import type { Engine } from './snapshot/engine.js';
import type { CurrentTree, EngineSettings, OpenOptions, ProgressListener, SnapshotOptions, SnapshotResult } from './snapshot/engineTypes.js';
import { startFirstScript } from './snapshot/firstScript.js';
import { skippedOf } from './snapshot/leftOut.js';
import { currentTreeOf, heavyScanFiles, takeSnapshot, type SnapshotContext } from './snapshot/takeSnapshot.js';
import { interruptedJournal, interruptedMessage } from './restore/journal.js';
import { dropRestoredMarkerOf, readRestoredMarker } from './restore/restoredMarker.js';
import type { Snapshotter } from './projectCheckpoints.js';

/**
 * A project's checkpoints as a process that takes them sees them: the shadow repo, the list,
 * snapshots, and the store's upkeep (recovery, repair), each done by the part that owns it.
 * The parts above snapshot see it as Engine. Opening touches nothing on disk; the store is
 * created by the first snapshot.
 */
export class SnapshotEngine implements Engine, Snapshotter, SnapshotContext {
  readonly project: Project;
  readonly store: StorePaths;
  readonly repo: ShadowRepo;
  readonly log: CheckpointLog;
  readonly settings: EngineSettings;
  readonly env: NodeJS.ProcessEnv;
  private readonly lockWaitMs: number | undefined;
  /** Told how a long snapshot or restore is going (see Progress). */
  readonly onProgress: ProgressListener | undefined;
  private readonly onLockWait: OpenOptions['onLockWait'];
  /** The clock checkpoints are stamped and aged by. */
  readonly now: () => number;

  /** The project around `options.cwd` and its store under `options.home` (read, not made). */
  protected constructor(options: OpenOptions) {
    this.project = findProject(options.cwd, { allowHome: options.allowHome, env: options.env });
    this.store = locateStore(options.home, this.project.root).paths;
    this.settings = options.settings;
    this.env = options.env ?? process.env;
    this.lockWaitMs = options.lockWaitMs;
    this.onProgress = options.onProgress;
    this.onLockWait = options.onLockWait;
    this.now = options.now ?? Date.now;
    this.repo = new ShadowRepo(this.store, this.project, this.env);
    this.log = new CheckpointLog(this.store.log);
  }

  static open(options: OpenOptions): SnapshotEngine {
    return new SnapshotEngine(options);
  }

  get projectRoot(): string {
    return this.project.root;
  }

  get storeRoot(): string {
    return this.store.root;
  }

  get conversationsDir(): string {
    return this.store.conv;
  }

  /** Whether any checkpoint store exists yet for this project. */
  get initialized(): boolean {
    return this.repo.exists();
  }

  /**
   * Runs `work` holding the project's cross-process lock (snapshots, restores and repairs
   * from any process never interleave). The *Locked methods expect to run inside it.
   */
  async locked<T>(purpose: string, work: () => Promise<T>): Promise<T> {
    try {
      fs.mkdirSync(this.store.root, { recursive: true, mode: 0o700 });
      return await withLock(this.store.lock, { purpose, waitMs: this.lockWaitMs, onWait: this.onLockWait }, work);
    } catch (error) {
      throw explainStoreError(error, this.store.root, this.repo.gitDir);
    }
  }

  /** Takes a checkpoint of the work tree now, under the project lock. */
  snapshot(options: SnapshotOptions = {}): Promise<SnapshotResult> {
    const asked = performance.now();
    let waited = 0;
    const work = () =>
      this.locked('snapshot', () => {
        waited = performance.now() - asked;
        return this.snapshotLocked(options);
      });
    return logged(this.env, 'snapshot', { trigger: options.trigger ?? 'manual', project: this.project.root }, work, ({ record, unchanged }) => ({
      id: record.id,
      unchanged: unchanged === true,
      files: record.changedPaths?.length,
      // How long it waited for the project lock (another snapshot, a restore, retention's drop).
      waited: Math.round(waited),
    }));
  }

  /** `snapshot` for a caller that holds the lock. */
  async snapshotLocked(options: SnapshotOptions = {}): Promise<SnapshotResult> {
    const healed = healStore(this.repo, this.log, this.store.journal);
    // The first snapshot's script starts now: it asks the project's git config (the seeding
    // and the first rules need the answer) and lists its untracked files while the store is made.
    const first = this.repo.exists() ? undefined : startFirstScript(this.repo, projectGitEnv(this.env), heavyScanFiles(this.store));
    let failed = true;
    try {
      const result = await takeSnapshot(this, options, first);
      failed = false;
      return { ...result, warnings: [...healed, ...result.warnings] };
    } finally {
      void first?.cancel();
      this.onProgress?.({ task: 'snapshot', done: 0, finished: true, ...(failed ? { failed } : {}) });
    }
  }

  /**
   * Repairs the chain if a background gc found objects missing (see repairChain); cheap
   * when it did not. Call where a pause is acceptable (listing, app start), never per step.
   */
  async maintain(): Promise<RepairResult | undefined> {
    if (!this.repo.exists() || !fs.existsSync(repairMarker(this.repo))) return undefined;
    return this.locked('repair', () => repairChain(this.repo, this.log));
  }

  /** Checks the whole chain now and repairs it (after the project's own gc --prune). */
  async repair(): Promise<RepairResult> {
    if (!this.repo.exists()) return { broken: [], rewritten: 0 };
    return this.locked('repair', () => repairChain(this.repo, this.log));
  }

  /**
   * Takes back the newest checkpoint if it is `id` (a restore that failed before touching
   * anything removes the redo point it took), and the restored marker if it names it: the
   * next checkpoint gets that id again. Caller holds the lock.
   */
  async dropNewestLocked(id: number): Promise<void> {
    const records = this.list();
    if (records.at(-1)?.id !== id) return;
    this.log.rewrite(records.slice(0, -1));
    dropRestoredMarkerOf(this.store, id);
    await this.repo.git(['update-ref', '-d', `refs/checkpoints/${id}`], { okCodes: [0, 1] });
  }

  /**
   * The tree a restore left the files at, while the newest checkpoint is still that
   * restore's redo point (or later restore bookkeeping): files equal to it are unchanged.
   */
  restoredTree(newest: CheckpointRecord | undefined): string | undefined {
    const marker = readRestoredMarker(this.store);
    return marker && newest && marker.after === newest.id ? marker.tree : undefined;
  }

  /** Every checkpoint, oldest first. */
  list(): CheckpointRecord[] {
    return this.log.readAll();
  }

  /**
   * Removes the scratch folders of Rewinds that were killed (a bisect's), then rebuilds the
   * list from the shadow repo if it was lost, emptied, cut short or moved aside (under the lock).
   */
  async recoverList(): Promise<string[]> {
    removeDeadScratch(this.store);
    if (!listNeedsRecovery(this.repo, this.log)) return [];
    return this.locked('rebuild the checkpoint list', async () => {
      const healed = healStore(this.repo, this.log, this.store.journal);
      if (listBehindRefs(this.repo, this.log)) await rebuildLog(this.repo, this.log);
      return healed;
    });
  }

  /** The checkpoint with this id, or a UserError that says how to find one. */
  get(id: number): CheckpointRecord {
    const record = this.list().find((entry) => entry.id === id);
    if (!record) throw new UserError(`there is no checkpoint #${id} in this project: \`rewind list\` shows them`);
    return record;
  }

  /**
   * The tree of the work tree as it is now (staged into the shadow index, no commit):
   * what a restore would start from.
   */
  currentTree(options: { signal?: AbortSignal } = {}): Promise<CurrentTree> {
    if (!this.repo.exists()) throw new UserError(`no checkpoints yet for ${this.project.root}: they are taken when a session in \`rewind -- <agent>\` starts, before each Enter and after file changes, or by \`rewind snapshot\``);
    return this.locked('read the work tree', () => currentTreeOf(this, options.signal));
  }

  /** `currentTree` for a caller that holds the lock. */
  currentTreeLocked(): Promise<CurrentTree> {
    return currentTreeOf(this);
  }

  /** Files the engine leaves out now (oversize, heavy), from its state. */
  scanConfirmedThrough(): number {
    return readState(this.store.state).scanConfirmedThrough ?? 0;
  }

  skippedNow(): SkippedFile[] {
    return skippedOf(readState(this.store.state), this.project.root, this.settings.checkpointMaxFileMb);
  }

  async canUndo(): Promise<boolean> {
    return (await this.undoPoint()) !== undefined;
  }

  async undoPoint(): Promise<number | undefined> {
    return this.initialized ? (await readRedoStack(this.repo)).at(-1)?.checkpoint : undefined;
  }

  interruptedRestore(): string | undefined {
    const journal = interruptedJournal(this.store.journal);
    return journal ? interruptedMessage(journal) : undefined;
  }

  folders(): Promise<string[]> {
    return foldersOfNewest(this.repo, this.list());
  }

  ignored(paths: readonly string[]): Promise<Set<string>> {
    return ignoredAmong(this.repo, paths);
  }

  /** Changes whenever `ignored` may answer otherwise for a path not changed since (its rules, the index). */
  ignoreStamp(): string {
    return ignoreStamp(this.repo);
  }

  projectBytes(): Promise<number> {
    return diskUsage(this.store.root);
  }
}
