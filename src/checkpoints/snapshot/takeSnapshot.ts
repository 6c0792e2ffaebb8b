// A snapshot's steps around the staging itself (snapshot.ts): the store made on the first
// one, the ignore rules refreshed, the list entry written; and the tree of the files now
// (what a restore starts from). The engine (snapshotEngine.ts) runs them under the project lock.
import path from 'node:path';
import { readProjectHead } from '../git/projectHead.js';
import type { IndexEntry } from '../git/indexFile.js';
import { onceProjectGitConfig, type ProjectGitConfig } from '../git/projectConfig.js';
import { clearStaleGitLocks, startBackgroundGc } from '../store/maintenance.js';
import { checkpointMessage } from '../store/message.js';
import { measureUntracked } from '../store/projectSize.js';
import { listBehindRefs, rebuildLog } from '../store/rebuildLog.js';
import type { CheckpointRecord } from '../store/record.js';
import { repairMarker } from '../store/repairChain.js';
import { createStore, type StorePaths } from '../store/store.js';
import type { Engine } from './engine.js';
import { readState, writeStateIfChanged, type StoreState } from '../store/storeState.js';
import { healStore } from '../store/storeHealth.js';
import { refreshExcludes } from './excludeRules.js';
import { collectHeavyScan, heavyAmong, heavyScanToStart, type HeavyScanFiles } from './heavyScan.js';
import type { FirstScript } from './firstScript.js';
import { reviewState, skippedOf } from './leftOut.js';
import { seedShadowIndex } from './seedIndex.js';
import { initShadowRepo } from './shadowInit.js';
import { snapshotTree, type SnapshotLimits } from './snapshot.js';
import type { CurrentTree, EngineSettings, SnapshotOptions, SnapshotResult } from './engineTypes.js';

/** What the steps read of the engine. */
export interface SnapshotContext extends Pick<Engine, 'project' | 'store' | 'repo' | 'log' | 'onProgress' | 'now' | 'list'> {
  readonly settings: EngineSettings;
  readonly env: NodeJS.ProcessEnv;
  /** The tree a restore left the files at while the newest checkpoint is its redo point (see restoredMarker). */
  restoredTree(newest: CheckpointRecord | undefined): string | undefined;
}

function maxFileBytes(ctx: SnapshotContext): number {
  return ctx.settings.checkpointMaxFileMb * 1024 * 1024;
}

/** The size cap, and what checkpoint_include adds (nothing when it is empty). */
function snapshotLimits(ctx: SnapshotContext): SnapshotLimits {
  const patterns = ctx.settings.checkpointInclude ?? [];
  return patterns.length === 0 ? { maxFileBytes: maxFileBytes(ctx) } : { maxFileBytes: maxFileBytes(ctx), include: { patterns, exclude: ctx.settings.checkpointExclude } };
}

/** Where the background walk for heavy files keeps its result. */
export function heavyScanFiles(store: StorePaths): HeavyScanFiles {
  return { result: store.heavyScan, stamp: store.heavyScanStarted, standardExclude: store.standardExclude };
}

function refreshRules(ctx: SnapshotContext, state: StoreState, gitConfig: () => Promise<ProjectGitConfig>): Promise<boolean> {
  return refreshExcludes({
    gitConfig,
    project: ctx.project,
    infoExclude: path.join(ctx.repo.gitDir, 'info', 'exclude'),
    standardExclude: ctx.store.standardExclude,
    env: ctx.env,
    configExcludes: ctx.settings.checkpointExclude,
    configIncludes: ctx.settings.checkpointInclude,
    oversize: Object.keys(state.oversize).sort(),
    leftOut: Object.keys(state.leftOut).sort(),
    unbornNested: state.unbornNested,
  });
}

/** Creates the store and shadow repo if this is the project's first snapshot. */
async function ensureStore(ctx: SnapshotContext, gitConfig: () => Promise<ProjectGitConfig>): Promise<{ created: boolean; warnings: string[]; oversize: Record<string, number>; entries?: IndexEntry[]; exact?: boolean }> {
  if (ctx.repo.exists()) return { created: false, warnings: [], oversize: {} };
  createStore(ctx.store, ctx.project.root);
  await initShadowRepo(ctx.repo);
  const warnings: string[] = [];
  const { seeded, oversize, entries, exact } = await seedShadowIndex(ctx.repo, maxFileBytes(ctx), gitConfig);
  if (!seeded && !ctx.project.git) {
    const bytes = await measureUntracked(ctx.repo);
    const limit = ctx.settings.checkpointWarnGb * 1024 ** 3;
    if (bytes > limit) {
      warnings.push(`${ctx.project.root} is not a git repository and holds ${(bytes / 1024 ** 3).toFixed(1)} GB: the first checkpoint copies all of it into ${ctx.store.root} (add patterns to checkpoint_exclude to leave folders out)`);
    }
  }
  return { created: true, warnings, oversize, entries, exact };
}

/**
 * The heavy files the first checkpoint reports: among the untracked files listed ahead,
 * the ones its add did not take (usually none, and then no process runs); in a plain
 * folder, what the walk beside the add found.
 */
async function firstHeavy(ctx: SnapshotContext, first: FirstScript | undefined, added: ReadonlySet<string>): Promise<Record<string, number> | undefined> {
  const untracked = first?.untracked();
  if (!untracked) return collectHeavyScan(ctx.repo, heavyScanFiles(ctx.store), maxFileBytes(ctx))?.heavy;
  return heavyAmong(ctx.repo, untracked.filter((file) => !file.endsWith('/') && !added.has(file)), maxFileBytes(ctx));
}

/** A snapshot, the project lock held; `first`: the first snapshot's script, started ahead. */
export async function takeSnapshot(ctx: SnapshotContext, options: SnapshotOptions, first: FirstScript | undefined): Promise<SnapshotResult> {
  const gitConfig = onceProjectGitConfig(ctx.project, ctx.env, first?.config);
  const { created, warnings, oversize, entries: seededEntries, exact: exactSeed } = await ensureStore(ctx, gitConfig);
  clearStaleGitLocks(ctx.repo);
  const state = readState(ctx.store.state);
  const stateBefore = JSON.stringify(state);
  Object.assign(state.oversize, oversize);
  const scanned = collectHeavyScan(ctx.repo, heavyScanFiles(ctx.store), maxFileBytes(ctx));
  if (scanned) {
    state.heavy = scanned.heavy;
    Object.assign(state.oversize, scanned.oversize);
  }
  if (created || state.largestCapBytes !== undefined) state.largestCapBytes = Math.max(state.largestCapBytes ?? 0, maxFileBytes(ctx));
  reviewState(state, ctx.project.root, maxFileBytes(ctx));
  const rulesChanged = (await refreshRules(ctx, state, gitConfig)) && !created;
  // Ids are not reused while their checkpoint is kept: a list lost, emptied or cut short is
  // first rebuilt from the refs. (One taken back at once, the checkpoint a restore that changed
  // nothing took first, left nothing that names it: dropNewestLocked.)
  if (!created && listBehindRefs(ctx.repo, ctx.log)) await rebuildLog(ctx.repo, ctx.log);
  const newest = ctx.log.last();
  const id = (newest?.id ?? 0) + 1;
  // The chain continues from the newest checkpoint whose objects are all there.
  const last = newest?.unrestorable ? ctx.list().findLast((record) => !record.unrestorable) : newest;
  const label = options.label ?? '';
  const trigger = options.trigger ?? 'manual';
  const message = checkpointMessage({ id, label, trigger });
  const result = await snapshotTree(
    ctx.repo,
    state,
    snapshotLimits(ctx),
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
      sameTree: options.onlyIfChanged ? ctx.restoredTree(newest) : undefined,
      // The files were last staged as the previous checkpoint holds them: not after a restore
      // (its files are not the newest checkpoint's), nor past an unrestorable newest one, nor
      // when the newest was imported (another project's files, never staged here).
      onPrevious: last === newest && newest?.imported === undefined && ctx.restoredTree(newest) === undefined,
      first,
      paths: options.paths,
      whileRunning: options.whileRunning,
      heavyScan: !created && options.backgroundScan !== false ? heavyScanToStart(heavyScanFiles(ctx.store)) : undefined,
      onStaged: ctx.onProgress && ((files) => ctx.onProgress?.({ task: 'snapshot', done: files })),
    },
    { refreshExcludes: () => refreshRules(ctx, state, gitConfig) },
  );
  warnings.push(...result.notes);
  if (options.onlyIfChanged && last && result.commit === undefined) {
    if (!result.scoped && last === newest) state.scanConfirmedThrough = last.id;
    writeStateIfChanged(ctx.store.state, stateBefore, state);
    return { record: last, warnings, unchanged: true, toTarget: result.toTarget, fromChangedPaths: result.scoped };
  }
  if (created) state.heavy = (await firstHeavy(ctx, first, result.added)) ?? state.heavy;
  const record: CheckpointRecord = {
    id,
    commit: result.commit ?? last?.commit ?? '',
    tree: result.tree,
    time: new Date(ctx.now()).toISOString(),
    session: options.session ?? null,
    agent: options.agent ?? null,
    ...(options.agentSession ? { agentSession: options.agentSession } : {}),
    trigger,
    label: options.describe ? options.describe({ summary: result.summary, paths: result.changedPaths, examples: result.examples }) : label,
    deduped: result.commit === undefined,
    changedSincePrevious: result.changed,
    changedPaths: result.changedPaths,
    ...(result.summary ? { changes: result.summary } : {}),
    skipped: skippedOf(state, ctx.project.root, ctx.settings.checkpointMaxFileMb),
    nested: state.nested,
    projectHead: readProjectHead(ctx.project) ?? null,
    conversation: options.conversation ?? null,
    ...(result.scoped ? { fromChangedPaths: true as const } : {}),
  };
  ctx.log.append(record);
  writeStateIfChanged(ctx.store.state, stateBefore, state);
  if (ctx.settings.gcEvery > 0 && id % ctx.settings.gcEvery === 0) startBackgroundGc(ctx.repo, repairMarker(ctx.repo));
  return { record, warnings, toTarget: result.toTarget, fromChangedPaths: result.scoped };
}

/** The tree of the files now, staged into the shadow index with no commit; the project lock held. */
export async function currentTreeOf(ctx: SnapshotContext, signal?: AbortSignal): Promise<CurrentTree> {
  healStore(ctx.repo, ctx.log, ctx.store.journal);
  clearStaleGitLocks(ctx.repo);
  const gitConfig = onceProjectGitConfig(ctx.project, ctx.env);
  const state = readState(ctx.store.state);
  const stateBefore = JSON.stringify(state);
  reviewState(state, ctx.project.root, maxFileBytes(ctx));
  const rulesChanged = await refreshRules(ctx, state, gitConfig);
  const newest = ctx.log.last();
  const last = newest?.unrestorable ? ctx.list().findLast((record) => !record.unrestorable) : newest;
  const result = await snapshotTree(
    ctx.repo,
    state,
    snapshotLimits(ctx),
    { prevTree: last?.tree, ref: 'refs/rewind/unused', message: '', mode: 'tree', rulesChanged, ...(signal ? { signal } : {}) },
    { refreshExcludes: () => refreshRules(ctx, state, gitConfig) },
  );
  if (newest && last === newest && result.changed === 0) state.scanConfirmedThrough = newest.id;
  writeStateIfChanged(ctx.store.state, stateBefore, state);
  return { tree: result.tree, changedSinceNewest: last ? result.changed : null, changedPathsSinceNewest: last ? result.changedPaths : [], nested: state.nested };
}
