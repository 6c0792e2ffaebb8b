import fs from 'node:fs';
import path from 'node:path';
import { GitError, splitNul } from '../git/git.js';
import { gitlinkMode, parseRawDiff, type RawChange } from '../git/diffRaw.js';
import { parseScriptOutput, scanTreeListing, runSnapshotScript, scriptSteps, type ScriptInput, type ScriptOutput, type StagedPath } from './snapshotScript.js';
import type { FirstScript } from './firstScript.js';
import { examplesOf, summarize, type ChangeExamples, type ChangeSummary } from './changeSummary.js';
import type { HeavyScanFiles } from './heavyScan.js';
import type { IndexEntry } from '../git/indexFile.js';
import { clearRefLock } from '../store/maintenance.js';
import { runProjectGit } from '../git/projectGit.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import type { SkippedFile } from '../store/record.js';
import type { StoreState } from '../store/storeState.js';
import { discardOversizeObjects, stagedOids } from './discardBlobs.js';
import { classifyStagingFailure, damagedConfigFile, isIndexDamaged, vanishedMidWalk } from './stagingFailure.js';
import { writeShadowConfig } from '../store/shadowRepo.js';
import { formerRepositories, writeNestedLinks } from './nestedLinks.js';
import { addIndexBehind, writeScope } from './scope.js';
import { caughtUpByRebuilding, firstLine, rebuildIndex, reseedIndex } from './shadowIndex.js';
import { includedInIndex, writeIncludeList, type IncludeSettings } from './includeFiles.js';

/** What the snapshot needs from config.json. */
export interface SnapshotLimits {
  maxFileBytes: number;
  /** checkpoint_include and checkpoint_exclude (includeFiles.ts); absent or no patterns: no ignored file is added. */
  include?: Omit<IncludeSettings, 'maxFileBytes'>;
}

export interface TreeSnapshot {
  tree: string;
  /** The new commit; absent when the tree equals the previous checkpoint's (or in tree mode). */
  commit?: string;
  /** Files that differ from prevTree; null when that could not be read. */
  changed: number | null;
  /** The paths that changed (at most maxChangedPaths of them). */
  changedPaths: string[];
  /** The changes by kind (undefined for the first snapshot, or when the diff could not be read). */
  summary?: ChangeSummary;
  /** A few paths of each kind (at most 5 each), to name them. */
  examples?: ChangeExamples;
  /** The raw diff to `diffTo`, when asked for (undefined: it could not be read). */
  toTarget?: Buffer;
  /** Every path an add staged, over all attempts. */
  added: Set<string>;
  /** One-line notices about what was repaired on the way (a damaged index rebuilt, …). */
  notes: string[];
  /** Staged from the paths given (SnapshotRequest.paths) rather than a walk of the whole tree. */
  scoped: boolean;
}

export interface SnapshotRequest {
  prevCommit?: string;
  prevTree?: string;
  ref: string;
  message: string;
  mode: 'commit' | 'tree' | 'changed';
  /** Excludes changed since the last snapshot: files now ignored leave the shadow index. */
  rulesChanged: boolean;
  /** The first snapshot's seeded index, read from the file: no full tree listing needed. */
  seededEntries?: readonly IndexEntry[];
  /** Also diff the new tree against this tree (in the same process). */
  diffTo?: string;
  /** In `changed` mode, a tree that also counts as unchanged (the files as a restore left them). */
  sameTree?: string;
  /** The first snapshot's script, already started: the first attempt runs in it. */
  first?: FirstScript;
  /** The seeded index holds every tracked file (see SeedResult.exact): the first script may
   * stage the tracked files and the untracked ones it listed instead of walking again. */
  trackedThenListed?: boolean;
  /** Told the count of files staged so far (progress). */
  onStaged?: (files: number) => void;
  /** Only these project-relative paths changed since the last snapshot (SnapshotOptions.paths). */
  paths?: readonly string[];
  /** Start the background walk for heavy files once a walk of the whole tree is written (see ScriptInput.heavyScan). */
  heavyScan?: HeavyScanFiles;
  /** The files were last staged as `prevCommit` holds them (no restore since, no newer
   * checkpoint left out): `paths` are all that changed since it, and a step of regular
   * files may be staged without the index, on top of that commit. */
  onPrevious?: boolean;
  /** Called once the script runs (SnapshotOptions.whileRunning). */
  whileRunning?: () => void;
  /** Stops the snapshot's git once aborted (a walk nobody waits for any more): it fails with `Stopped`. */
  signal?: AbortSignal;
}

/** Callbacks into the engine for the rare paths (new exclusions). */
export interface SnapshotHooks {
  refreshExcludes: () => Promise<boolean>;
}

/** How many changed paths a checkpoint record keeps (for filtering the picker by file). */
const maxChangedPaths = 100;
/** Each attempt settles something (files left out, a vanished file, a repair): a few suffice. */
const maxAttempts = 12;

const invalidObjectPattern = /invalid object \d+ [0-9a-f]+ for '(.+)'/;

/**
 * Stages the project's work tree into the shadow index and writes a tree (and in commit
 * mode a checkpoint commit and its ref). What would stop it is settled and it runs again:
 * files over the size cap that the add picked up are taken out and excluded from then on;
 * files git cannot add (FIFOs, unreadable files) are left out and reported; nested
 * repositories without a commit are excluded; a file that vanished mid-walk sends it to a
 * walk that takes vanished files for absent ones; a damaged shadow index or config is
 * rebuilt; an index pointing at borrowed objects the project has since pruned is re-seeded.
 * Returns the tree and what differs from `prevTree` (read from the tree diff).
 */
export async function snapshotTree(repo: ShadowRepo, state: StoreState, limits: SnapshotLimits, request: SnapshotRequest, hooks: SnapshotHooks): Promise<TreeSnapshot> {
  let rulesChanged = request.rulesChanged;
  let robust = false;
  const repaired = new Set<'objects' | 'index' | 'config'>();
  let droppedIgnored = false;
  const notes: string[] = [];
  const first = request.prevTree === undefined;
  const added = new Set<string>();
  const robustList = repo.store.untrackedList;
  let scanStarted = false;
  const linked = [...state.nested, ...(request.seededEntries?.filter((entry) => entry.mode === 0o160000).map((entry) => entry.path) ?? [])];
  // A nested repository whose .git is gone is a folder of files now: out of the index as a
  // gitlink, or the add never stages them (git keeps a gitlink for a path it holds as one).
  const unlinked = formerRepositories(repo, linked);
  if (unlinked.length > 0) {
    await removeFromIndex(repo, unlinked);
    state.nested = state.nested.filter((link) => !unlinked.includes(link));
  }
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    // A stage that uses the index, and everything that reads it first, finds it as the last
    // checkpoint left it: a step staged without it left it behind on some paths.
    const mayGoWithoutIndex = attempt === 0 && !first && !rulesChanged && unlinked.length === 0 && request.paths !== undefined && request.mode !== 'tree' && request.prevCommit !== undefined && request.onPrevious === true && !limits.include;
    if (!mayGoWithoutIndex && (await caughtUpByRebuilding(repo, state, limits.maxFileBytes, notes))) {
      rulesChanged = await hooks.refreshExcludes();
      continue;
    }
    if (rulesChanged) await dropNewlyIgnored(repo, () => keptIncluded(repo, state, limits));
    rulesChanged = false;
    // Listed on every attempt, a narrowed one too: a new ignored file is never among the
    // changed paths the app gives (they are filtered by the ignore rules), so the listing
    // covers the whole tree whatever the scope.
    const include = limits.include ? await writeIncludeList(repo, state, { ...limits.include, maxFileBytes: limits.maxFileBytes }) : undefined;
    // In robust mode add -v lists less than it staged: the first snapshot counts from the listing then.
    const nested = writeNestedLinks(repo, linked.filter((link) => !unlinked.includes(link)));
    // Only the first attempt is narrowed to the paths given: whatever made one fail or run
    // again (a file left out, a repair, changed rules) is settled by a walk of everything.
    const scope = attempt === 0 && !first && !rulesChanged && unlinked.length === 0 && request.paths ? writeScope(repo, request.paths, nested, mayGoWithoutIndex && request.prevCommit ? { parent: request.prevCommit, message: request.message, maxFileBytes: limits.maxFileBytes } : undefined) : undefined;
    if (mayGoWithoutIndex && !scope?.withoutIndex && (await caughtUpByRebuilding(repo, state, limits.maxFileBytes, notes))) {
      rulesChanged = await hooks.refreshExcludes();
      continue;
    }
    // Nothing changed since the previous checkpoint, whose files are the ones on disk (what a
    // step staged without the index relies on): its tree, and no git at all. Staged without
    // the index, such a step made a commit nothing keeps (an Enter that changed nothing).
    if (scope?.withoutIndex && request.paths?.length === 0 && request.mode === 'changed' && request.diffTo === undefined && request.prevTree !== undefined) {
      return { tree: request.prevTree, changed: 0, changedPaths: [], summary: { added: 0, modified: 0, deleted: 0 }, added, notes, scoped: true };
    }
    // Not after one staged from changed paths: the walk costs what the whole tree costs, and
    // the next snapshot that walks the whole tree starts it. Once per snapshot.
    const heavyScan: HeavyScanFiles | undefined = scope === undefined && !scanStarted ? request.heavyScan : undefined;
    const input: ScriptInput = { ...request, diff: !first, list: first && (!request.seededEntries || robust), robustList: robust ? robustList : undefined, nested, scope, include, heavyScan };
    let output: ScriptOutput;
    try {
      const run = attempt === 0 && request.first ? request.first.run(input) : runSnapshotScript(repo, input);
      if (attempt === 0) request.whileRunning?.();
      output = parseScriptOutput((await run).stdout);
      scanStarted ||= heavyScan !== undefined;
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      if (scope !== undefined) continue;
      const step = scriptSteps[error.code ?? -1];
      // A damaged index reads as nonsense too ("unexpected diff status"): the index is only a
      // cache, so an add or write-tree failure not settled below is worth one rebuild.
      const unexplained = (step === 'add' || step === 'write-tree') && !classifyStagingFailure(error.stderr, repo.project.root) && !invalidObjectPattern.test(error.stderr);
      if ((isIndexDamaged(error.stderr) || unexplained) && !damagedConfigFile(error.stderr) && !repaired.has('index')) {
        await rebuildIndex(repo, state, limits.maxFileBytes);
        notes.push(`the shadow index in ${repo.gitDir} could not be read (${firstLine(error.stderr)}): rebuilt it from the files on disk`);
        repaired.add('index');
        rulesChanged = await hooks.refreshExcludes();
        continue;
      }
      const badConfig = damagedConfigFile(error.stderr);
      if (badConfig && path.resolve(repo.project.root, badConfig) === path.join(repo.gitDir, 'config') && !repaired.has('config')) {
        writeShadowConfig(repo);
        notes.push(`the shadow repo's config (${badConfig}) was damaged: rewrote it`);
        repaired.add('config');
        continue;
      }
      if (step === 'add') {
        if (vanishedMidWalk(error.stderr)) robust = true;
        const failure = classifyStagingFailure(error.stderr, repo.project.root);
        if (failure) {
          if (failure.unborn.length > 0) state.unbornNested = [...new Set([...state.unbornNested, ...failure.unborn])];
          const leftOut = Object.keys(failure.leftOut);
          if (leftOut.length > 0) {
            Object.assign(state.leftOut, failure.leftOut);
            await removeFromIndex(repo, leftOut);
          }
          if (failure.unborn.length > 0 || leftOut.length > 0) rulesChanged = await hooks.refreshExcludes();
          continue;
        }
      }
      if (step === 'write-tree' && invalidObjectPattern.test(error.stderr) && !repaired.has('objects')) {
        await reseedIndex(repo, state, limits.maxFileBytes);
        await hooks.refreshExcludes();
        repaired.add('objects');
        continue;
      }
      if (step === 'update-ref' && (await clearRefLock(repo, error.stderr))) continue;
      throw new GitError(error.args, error.code, error.stderr, `snapshot failed at git ${step ?? 'sh'}`);
    } finally {
      if (robust) fs.rmSync(robustList, { force: true });
    }
    if (output.withoutIndex) addIndexBehind(repo, output.tree, request.paths ?? []);
    for (const item of output.staged) if (item.action === 'add') added.add(item.path);
    if (output.kind === 'same') return { tree: output.tree, changed: 0, changedPaths: [], summary: { added: 0, modified: 0, deleted: 0 }, toTarget: output.toTarget, added, notes, scoped: scope !== undefined };

    // What changed since the previous checkpoint, exactly (a -z diff); for the first, its listing.
    const changes = first || !output.diff ? undefined : parseRawDiff(output.diff);
    const listed = output.listing ? scanTreeListing(output.listing, limits.maxFileBytes) : undefined;
    const entries = listed?.entries;
    const stagedAdds = output.staged.filter((item) => item.action === 'add').map((item) => item.path);
    const oversize = entries
      ? entries.filter((entry) => entry.mode !== gitlinkMode).map((entry) => ({ path: entry.path, bytes: entry.size, reason: 'larger than checkpoint_max_file_mb' }))
      : findOversize(repo.project.root, changes ? writtenFiles(changes) : stagedAdds, limits.maxFileBytes);
    if (oversize.length > 0) {
      for (const file of oversize) state.oversize[file.path] = file.bytes;
      const oids = await stagedOids(repo, oversize.map((file) => file.path));
      await removeFromIndex(repo, oversize.map((file) => file.path));
      discardOversizeObjects(
        repo,
        oversize.flatMap((file) => (oids.has(file.path) ? [{ oid: oids.get(file.path) ?? '', bytes: file.bytes }] : [])),
        state.largestCapBytes,
      );
      await hooks.refreshExcludes();
      continue;
    }
    if (changes) trackNestedChanges(state, changes);
    else {
      const gitlinks = entries
        ? entries.filter((entry) => entry.mode === gitlinkMode).map((entry) => entry.path)
        : request.seededEntries?.filter((entry) => entry.mode === 0o160000).map((entry) => entry.path);
      trackNested(repo.project.root, state, output.staged, gitlinks);
    }
    const changedPaths = changes ? changes.map((change) => change.path) : output.staged.map((item) => item.path);
    const gitignoreChanged = changedPaths.some((file) => path.posix.basename(file.replace(/\/$/, '')) === '.gitignore');
    if (gitignoreChanged && !droppedIgnored) {
      droppedIgnored = true;
      if (await dropNewlyIgnored(repo, () => keptIncluded(repo, state, limits))) continue;
    }
    const changed = changes
      ? changes.length
      : !first
        ? null
        : listed
          ? listed.count
          : request.seededEntries
            ? firstCount(request.seededEntries, output.staged)
            : output.staged.length;
    // The first checkpoint "changes" every file: naming them all says nothing.
    const paths = first || !changes ? [] : changedPaths;
    return { tree: output.tree, commit: output.commit, changed, changedPaths: paths.slice(0, maxChangedPaths), summary: changes ? summarize(changes) : undefined, examples: changes ? examplesOf(changes) : undefined, toTarget: output.toTarget, added, notes, scoped: scope !== undefined };
  }
  throw new Error(`snapshot did not settle after ${maxAttempts} attempts (files kept changing under it, or git kept failing); run \`rewind snapshot\` again`);
}

/** The paths a diff writes as regular files (added, modified, or changed to a file). */
function writtenFiles(changes: readonly RawChange[]): string[] {
  return changes.filter((change) => change.status !== 'D' && (change.dstMode === '100644' || change.dstMode === '100755')).map((change) => change.path);
}

/** Nested repositories, from the gitlinks the diff adds and removes. */
function trackNestedChanges(state: StoreState, changes: readonly RawChange[]): void {
  const nested = new Set(state.nested);
  for (const change of changes) {
    if (change.srcMode === gitlinkMode) nested.delete(change.path);
    if (change.dstMode === gitlinkMode) nested.add(change.path);
  }
  state.nested = [...nested].sort();
}

/** Files in the first checkpoint: the seeded entries, plus what the add staged beyond them. */
function firstCount(seeded: readonly IndexEntry[], staged: readonly StagedPath[]): number {
  const unmerged = seeded.filter((entry) => entry.stage !== 0);
  if (staged.length === 0 && unmerged.length === 0) return seeded.length;
  const paths = new Set(seeded.filter((entry) => entry.stage === 0).map((entry) => entry.path));
  for (const entry of unmerged) paths.add(entry.path);
  for (const item of staged) {
    if (item.action === 'add') paths.add(item.path.replace(/\/$/, ''));
    else paths.delete(item.path);
  }
  return paths.size;
}

/** Regular files just staged that are over the cap. */
function findOversize(root: string, staged: readonly string[], maxBytes: number): SkippedFile[] {
  const found: SkippedFile[] = [];
  for (const file of staged) {
    try {
      const stat = fs.lstatSync(path.join(root, file));
      if (stat.isFile() && stat.size > maxBytes) found.push({ path: file, bytes: stat.size, reason: 'larger than checkpoint_max_file_mb' });
    } catch {
      // Gone already: nothing to leave out.
    }
  }
  return found;
}

/** Nested repositories are staged as gitlinks: a staged folder is one. */
function trackNested(root: string, state: StoreState, staged: readonly StagedPath[], gitlinks: readonly string[] | undefined): void {
  const nested = new Set(gitlinks ?? state.nested);
  for (const item of staged) {
    if (item.action === 'remove') {
      nested.delete(item.path.replace(/\/$/, ''));
      continue;
    }
    try {
      if (fs.lstatSync(path.join(root, item.path)).isDirectory()) nested.add(item.path.replace(/\/$/, ''));
    } catch {
      // Gone already.
    }
  }
  state.nested = [...nested].sort();
}

/** Takes these files out of the shadow index (whatever the index or the disk holds for them). */
async function removeFromIndex(repo: ShadowRepo, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await repo.git(['update-index', '--force-remove', '-z', '--stdin'], { input: `${paths.join('\0')}\0` });
}

/** The ignored files in the shadow index that checkpoint_include keeps there. */
function keptIncluded(repo: ShadowRepo, state: StoreState, limits: SnapshotLimits): Promise<ReadonlySet<string>> {
  return limits.include ? includedInIndex(repo, state, { ...limits.include, maxFileBytes: limits.maxFileBytes }) : Promise.resolve(new Set());
}

/**
 * Files in the shadow index that the rules now ignore and that the project itself does
 * not track (git status would no longer show them) leave the shadow index, but for those
 * checkpoint_include keeps (`kept`, asked only when some are ignored).
 * Returns whether any did.
 */
async function dropNewlyIgnored(repo: ShadowRepo, kept: () => Promise<ReadonlySet<string>>): Promise<boolean> {
  const listed = splitNul((await repo.git(['ls-files', '-z', '-c', '-i', '--exclude-standard'])).stdout);
  if (listed.length === 0) return false;
  const keep = await kept();
  const ignored = keep.size === 0 ? listed : listed.filter((file) => !keep.has(file));
  if (ignored.length === 0) return false;
  let trackedByProject = new Set<string>();
  if (repo.project.git) {
    // Everything the project tracks (git 2.39's ls-files takes no --pathspec-from-file).
    const listed = await runProjectGit(repo.project.root, repo.sourceEnv, ['ls-files', '-z']);
    trackedByProject = new Set(splitNul(listed.stdout));
  }
  const drop = ignored.filter((file) => !trackedByProject.has(file));
  await removeFromIndex(repo, drop);
  return drop.length > 0;
}
