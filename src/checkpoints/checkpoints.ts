import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import { CheckpointLog } from './store/checkpointLog.js';
import { refreshExcludes } from './snapshot/excludeRules.js';
import { collectHeavyScan, heavyAmong, startHeavyScan, type HeavyScanFiles } from './snapshot/heavyScan.js';
import { clearStaleGitLocks, startBackgroundGc } from './store/maintenance.js';
import { findProject, type Project } from './git/project.js';
import { readProjectHead } from './git/projectHead.js';
import type { CheckpointRecord, SkippedFile } from './store/record.js';
import { ShadowRepo } from './store/shadowRepo.js';
import { initShadowRepo } from './snapshot/shadowInit.js';
import type { Engine } from './snapshot/engine.js';
import { seedShadowIndex } from './snapshot/seedIndex.js';
import { snapshotTree } from './snapshot/snapshot.js';
import { checkpointMessage } from './store/message.js';
import { listBehindRefs, rebuildLog } from './store/rebuildLog.js';
import { repairChain, repairMarker, type RepairResult } from './store/repairChain.js';
import { createStore, locateStore, type StorePaths } from './store/store.js';
import { readState, writeStateIfChanged, type StoreState } from './store/storeState.js';
import { withLock } from '../os/lock.js';
import { healStore } from './store/storeHealth.js';
import { removeDeadScratch } from './store/scratchFolders.js';
import { explainStoreError } from './store/storeErrors.js';
import { measureUntracked } from './store/projectSize.js';
import { onceProjectGitConfig, type ProjectGitConfig } from './git/projectConfig.js';
import { startFirstScript, type FirstScript } from './snapshot/firstScript.js';
import { projectGitEnv } from './git/gitEnv.js';
import type { IndexEntry } from './git/indexFile.js';
import { readRestoredMarker } from './restore/restoredMarker.js';
import type { CurrentTree, EngineSettings, OpenOptions, ProgressListener, SnapshotOptions, SnapshotResult } from './snapshot/engineTypes.js';
import { reviewState, skippedOf } from './snapshot/leftOut.js';

export type { CurrentTree, EngineSettings, OpenOptions, Progress, ProgressListener, SnapshotOptions, SnapshotResult, StepChanges } from './snapshot/engineTypes.js';

/**
 * A project's checkpoints: the shadow repo, the list, and the operations on them.
 * Opening touches nothing on disk; the store is created by the first snapshot.
 */
export class Checkpoints implements Engine {
  readonly project: Project;
  readonly store: StorePaths;
  readonly repo: ShadowRepo;
  readonly log: CheckpointLog;
  private readonly settings: EngineSettings;
  private readonly env: NodeJS.ProcessEnv;
  private readonly lockWaitMs: number | undefined;
  /** Told how a long snapshot or restore is going (see Progress). */
  readonly onProgress: ProgressListener | undefined;
  private readonly onLockWait: OpenOptions['onLockWait'];
  /** The clock checkpoints are stamped and aged by. */
  readonly now: () => number;

  private constructor(project: Project, store: StorePaths, options: OpenOptions) {
    this.project = project;
    this.store = store;
    this.settings = options.settings;
    this.env = options.env ?? process.env;
    this.lockWaitMs = options.lockWaitMs;
    this.onProgress = options.onProgress;
    this.onLockWait = options.onLockWait;
    this.now = options.now ?? Date.now;
    this.repo = new ShadowRepo(store, project, this.env);
    this.log = new CheckpointLog(store.log);
  }

  static open(options: OpenOptions): Checkpoints {
    const project = findProject(options.cwd, { allowHome: options.allowHome, env: options.env });
    const { paths } = locateStore(options.home, project.root);
    return new Checkpoints(project, paths, options);
  }

  /** Whether any checkpoint store exists yet for this project. */
  get initialized(): boolean {
    return this.repo.exists();
  }

  private get heavyScanFiles(): HeavyScanFiles {
    return { result: this.store.heavyScan, stamp: this.store.heavyScanStarted, standardExclude: this.standardExclude };
  }

  private get standardExclude(): string {
    return this.store.standardExclude;
  }

  private refreshRules(state: StoreState, gitConfig: () => Promise<ProjectGitConfig>): Promise<boolean> {
    return refreshExcludes({
      gitConfig,
      project: this.project,
      infoExclude: path.join(this.repo.gitDir, 'info', 'exclude'),
      standardExclude: this.standardExclude,
      env: this.env,
      configExcludes: this.settings.checkpointExclude,
      oversize: Object.keys(state.oversize).sort(),
      leftOut: Object.keys(state.leftOut).sort(),
      unbornNested: state.unbornNested,
    });
  }

  /** Creates the store and shadow repo if this is the project's first snapshot. */
  private async ensureStore(gitConfig: () => Promise<ProjectGitConfig>): Promise<{ created: boolean; warnings: string[]; oversize: Record<string, number>; entries?: IndexEntry[]; exact?: boolean }> {
    if (this.repo.exists()) return { created: false, warnings: [], oversize: {} };
    createStore(this.store, this.project.root);
    await initShadowRepo(this.repo);
    const warnings: string[] = [];
    const { seeded, oversize, entries, exact } = await seedShadowIndex(this.repo, this.maxFileBytes, gitConfig);
    if (!seeded && !this.project.git) {
      const bytes = await measureUntracked(this.repo);
      const limit = this.settings.checkpointWarnGb * 1024 ** 3;
      if (bytes > limit) {
        warnings.push(`${this.project.root} is not a git repository and holds ${(bytes / 1024 ** 3).toFixed(1)} GB: the first checkpoint copies all of it into ${this.store.root} (add patterns to checkpoint_exclude to leave folders out)`);
      }
    }
    return { created: true, warnings, oversize, entries, exact };
  }

  private get maxFileBytes(): number {
    return this.settings.checkpointMaxFileMb * 1024 * 1024;
  }

  /**
   * The heavy files the first checkpoint reports: among the untracked files listed ahead,
   * the ones its add did not take (usually none, and then no process runs); in a plain
   * folder, what the walk beside the add found.
   */
  private async firstHeavy(first: FirstScript | undefined, added: ReadonlySet<string>): Promise<Record<string, number> | undefined> {
    const untracked = first?.untracked();
    if (!untracked) return collectHeavyScan(this.repo, this.heavyScanFiles, this.maxFileBytes)?.heavy;
    return heavyAmong(this.repo, untracked.filter((file) => !file.endsWith('/') && !added.has(file)), this.maxFileBytes);
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
    return this.locked('snapshot', () => this.snapshotLocked(options));
  }

  /** `snapshot` for a caller that holds the lock. */
  async snapshotLocked(options: SnapshotOptions = {}): Promise<SnapshotResult> {
    const healed = healStore(this.repo, this.log, this.store.journal);
    // The first snapshot's script starts now: it asks the project's git config (the seeding
    // and the first rules need the answer) and lists its untracked files while the store is made.
    const first = this.repo.exists() ? undefined : startFirstScript(this.repo, projectGitEnv(this.env), this.heavyScanFiles);
    let failed = true;
    try {
      const result = await this.snapshotWith(options, first);
      failed = false;
      return { ...result, warnings: [...healed, ...result.warnings] };
    } finally {
      void first?.cancel();
      this.onProgress?.({ task: 'snapshot', done: 0, finished: true, ...(failed ? { failed } : {}) });
    }
  }

  private async snapshotWith(options: SnapshotOptions, first: FirstScript | undefined): Promise<SnapshotResult> {
    const gitConfig = onceProjectGitConfig(this.project, this.env, first?.config);
    const { created, warnings, oversize, entries: seededEntries, exact: exactSeed } = await this.ensureStore(gitConfig);
    clearStaleGitLocks(this.repo);
    const state = readState(this.store.state);
    const stateBefore = JSON.stringify(state);
    Object.assign(state.oversize, oversize);
    const scanned = collectHeavyScan(this.repo, this.heavyScanFiles, this.maxFileBytes);
    if (scanned) {
      state.heavy = scanned.heavy;
      Object.assign(state.oversize, scanned.oversize);
    }
    if (created || state.largestCapBytes !== undefined) state.largestCapBytes = Math.max(state.largestCapBytes ?? 0, this.maxFileBytes);
    reviewState(state, this.project.root, this.maxFileBytes);
    const rulesChanged = (await this.refreshRules(state, gitConfig)) && !created;
    // Ids are never reused: a list lost, emptied or cut short is first rebuilt from the refs.
    if (!created && listBehindRefs(this.repo, this.log)) await rebuildLog(this.repo, this.log);
    const newest = this.log.last();
    const id = (newest?.id ?? 0) + 1;
    // The chain continues from the newest checkpoint whose objects are all there.
    const last = newest?.unrestorable ? this.list().findLast((record) => !record.unrestorable) : newest;
    const label = options.label ?? '';
    const trigger = options.trigger ?? 'manual';
    const message = checkpointMessage({ id, label, trigger });
    const result = await snapshotTree(
      this.repo,
      state,
      { maxFileBytes: this.maxFileBytes },
      {
        prevCommit: last?.commit,
        prevTree: last?.tree,
        ref: `refs/checkpoints/${id}`,
        message,
        mode: options.onlyIfChanged && last ? 'changed' : 'commit',
        rulesChanged,
        seededEntries,
        trackedThenListed: exactSeed === true,
        diffTo: options.diffTo,
        sameTree: options.onlyIfChanged ? this.restoredTree(newest) : undefined,
        first,
        onStaged: this.onProgress && ((files) => this.onProgress?.({ task: 'snapshot', done: files })),
      },
      { refreshExcludes: () => this.refreshRules(state, gitConfig) },
    );
    warnings.push(...result.notes);
    if (options.onlyIfChanged && last && result.commit === undefined) {
      writeStateIfChanged(this.store.state, stateBefore, state);
      return { record: last, warnings, unchanged: true, toTarget: result.toTarget };
    }
    if (created) state.heavy = (await this.firstHeavy(first, result.added)) ?? state.heavy;
    const record: CheckpointRecord = {
      id,
      commit: result.commit ?? last?.commit ?? '',
      tree: result.tree,
      time: new Date(this.now()).toISOString(),
      session: options.session ?? null,
      agent: options.agent ?? null,
      ...(options.agentSession ? { agentSession: options.agentSession } : {}),
      trigger,
      label: options.describe ? options.describe({ summary: result.summary, paths: result.changedPaths, examples: result.examples }) : label,
      deduped: result.commit === undefined,
      changedSincePrevious: result.changed,
      changedPaths: result.changedPaths,
      ...(result.summary ? { changes: result.summary } : {}),
      skipped: skippedOf(state, this.project.root, this.settings.checkpointMaxFileMb),
      nested: state.nested,
      projectHead: readProjectHead(this.project) ?? null,
      conversation: options.conversation ?? null,
    };
    this.log.append(record);
    writeStateIfChanged(this.store.state, stateBefore, state);
    if (!created && options.backgroundScan !== false) startHeavyScan(this.repo, this.heavyScanFiles);
    if (this.settings.gcEvery > 0 && id % this.settings.gcEvery === 0) startBackgroundGc(this.repo, repairMarker(this.repo));
    return { record, warnings, toTarget: result.toTarget };
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
   * anything removes the redo point it took). Caller holds the lock.
   */
  async dropNewestLocked(id: number): Promise<void> {
    const records = this.list();
    if (records.at(-1)?.id !== id) return;
    this.log.rewrite(records.slice(0, -1));
    await this.repo.git(['update-ref', '-d', `refs/checkpoints/${id}`], { okCodes: [0, 1] });
  }

  /**
   * The tree a restore left the files at, while the newest checkpoint is still that
   * restore's redo point (or later restore bookkeeping): files equal to it are unchanged.
   */
  private restoredTree(newest: CheckpointRecord | undefined): string | undefined {
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
    if (!this.storeNeedsHealing() && !listBehindRefs(this.repo, this.log)) return [];
    return this.locked('rebuild the checkpoint list', async () => {
      const healed = healStore(this.repo, this.log, this.store.journal);
      if (listBehindRefs(this.repo, this.log)) await rebuildLog(this.repo, this.log);
      return healed;
    });
  }

  /** A store whose shadow repo lost its HEAD, config or objects (see healStore). */
  private storeNeedsHealing(): boolean {
    if (!fs.existsSync(this.store.root)) return false;
    if (!fs.existsSync(path.join(this.repo.gitDir, 'objects'))) return this.log.exists();
    return !fs.existsSync(path.join(this.repo.gitDir, 'HEAD')) || !fs.existsSync(path.join(this.repo.gitDir, 'config'));
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
  currentTree(): Promise<CurrentTree> {
    if (!this.repo.exists()) throw new UserError(`no checkpoints yet for ${this.project.root}: they are taken when a session in \`rewind -- <agent>\` starts, before each Enter and after file changes, or by \`rewind snapshot\``);
    return this.locked('read the work tree', () => this.currentTreeLocked());
  }

  /** `currentTree` for a caller that holds the lock. */
  async currentTreeLocked(): Promise<CurrentTree> {
    healStore(this.repo, this.log, this.store.journal);
    clearStaleGitLocks(this.repo);
    const gitConfig = onceProjectGitConfig(this.project, this.env);
    const state = readState(this.store.state);
    const stateBefore = JSON.stringify(state);
    reviewState(state, this.project.root, this.maxFileBytes);
    const rulesChanged = await this.refreshRules(state, gitConfig);
    const newest = this.log.last();
    const last = newest?.unrestorable ? this.list().findLast((record) => !record.unrestorable) : newest;
    const result = await snapshotTree(
      this.repo,
      state,
      { maxFileBytes: this.maxFileBytes },
      { prevTree: last?.tree, ref: 'refs/rewind/unused', message: '', mode: 'tree', rulesChanged },
      { refreshExcludes: () => this.refreshRules(state, gitConfig) },
    );
    writeStateIfChanged(this.store.state, stateBefore, state);
    return { tree: result.tree, changedSinceNewest: last ? result.changed : null, changedPathsSinceNewest: last ? result.changedPaths : [], nested: state.nested };
  }

  /** Files the engine leaves out now (oversize, heavy), from its state. */
  skippedNow(): SkippedFile[] {
    return skippedOf(readState(this.store.state), this.project.root, this.settings.checkpointMaxFileMb);
  }
}
