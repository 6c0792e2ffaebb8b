import fs from 'node:fs';
import path from 'node:path';
import { GitError, runGit, splitNul } from './git.js';
import { messageOf } from '../errors.js';
import { gitlinkMode, parseRawDiff } from './diffRaw.js';
import { parseScriptOutput, scanTreeListing, runSnapshotScript, scriptSteps, type ScriptInput, type ScriptOutput, type StagedPath } from './snapshotScript.js';
import type { FirstScript } from './firstScript.js';
import type { IndexEntry } from './indexFile.js';
import { clearRefLock, clearRefLockFile } from './maintenance.js';
import { createRef, writeRootCommit } from './looseCommit.js';
import { projectGitEnv } from './gitEnv.js';
import type { ShadowRepo } from './shadowRepo.js';
import type { SkippedFile } from './record.js';
import type { StoreState } from './storeState.js';
import { seedShadowIndex } from './seedIndex.js';
import { discardOversizeObjects, stagedOids } from './discardBlobs.js';

/** What the snapshot needs from config.json. */
export interface SnapshotLimits {
  maxFileBytes: number;
}

export interface TreeSnapshot {
  tree: string;
  /** The new commit; absent when the tree equals the previous checkpoint's (or in tree mode). */
  commit?: string;
  /** Files that differ from prevTree; null when that could not be read. */
  changed: number | null;
  /** The paths that changed (at most maxChangedPaths of them). */
  changedPaths: string[];
  /** The raw diff to `diffTo`, when asked for (undefined: it could not be read). */
  toTarget?: Buffer;
  /** Every path an add staged, over all attempts. */
  added: Set<string>;
}

export interface SnapshotRequest {
  prevCommit?: string;
  prevTree?: string;
  ref: string;
  message: string;
  mode: 'commit' | 'tree' | 'changed';
  /** Excludes changed since the last snapshot: files now ignored leave the shadow index. */
  rulesChanged: boolean;
  /** The shadow index no longer matches prevTree (a tree-mode run staged since). */
  indexDrifted: boolean;
  /** The first snapshot's seeded index, read from the file: no full tree listing needed. */
  seededEntries?: readonly IndexEntry[];
  /** Also point this ref at the checkpoint's commit. */
  alsoRef?: string;
  /** Also diff the new tree against this tree (in the same process). */
  diffTo?: string;
  /** The first snapshot's script, already started: the first attempt runs in it. */
  first?: FirstScript;
  /** The seeded index holds every tracked file (see SeedResult.exact): the first script may
   * stage the tracked files and the untracked ones it listed instead of walking again. */
  trackedThenListed?: boolean;
}

/** Callbacks into the engine for the rare paths (new exclusions). */
export interface SnapshotHooks {
  refreshExcludes: () => Promise<boolean>;
}

/** How many changed paths a checkpoint record keeps (for filtering the picker by file). */
const maxChangedPaths = 100;

const unbornPattern = /error: '(.+)\/' does not have a commit checked out/g;
const invalidObjectPattern = /invalid object \d+ [0-9a-f]+ for '(.+)'/;

/**
 * Stages the project's work tree into the shadow index and writes a tree (and in commit
 * mode a checkpoint commit and its ref). Files over the size cap that the add picked up
 * are taken out again and excluded from then on; nested repositories without a commit
 * are excluded; an index pointing at borrowed objects the project has since pruned is
 * re-seeded. Returns the tree and how many files differ from `prevTree`.
 */
export async function snapshotTree(repo: ShadowRepo, state: StoreState, limits: SnapshotLimits, request: SnapshotRequest, hooks: SnapshotHooks): Promise<TreeSnapshot> {
  let rulesChanged = request.rulesChanged;
  let needDiff = request.indexDrifted || rulesChanged;
  let repairedIndex = false;
  const first = request.prevTree === undefined;
  // The first snapshot's commit and ref are written here, not by two more git processes.
  const commitHere = request.first !== undefined && first && request.mode !== 'tree' && !request.prevCommit && !request.alsoRef;
  const added = new Set<string>();
  for (let attempt = 0; attempt < 6; attempt++) {
    if (rulesChanged) await dropNewlyIgnored(repo);
    rulesChanged = false;
    const input: ScriptInput = { ...request, diff: needDiff, list: first && !request.seededEntries };
    let output: ScriptOutput;
    try {
      const run = attempt === 0 && request.first ? request.first.run(commitHere ? { ...input, mode: 'tree' } : input) : runSnapshotScript(repo, input);
      output = parseScriptOutput((await run).stdout);
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      const step = scriptSteps[error.code ?? -1];
      const unborn = [...error.stderr.matchAll(unbornPattern)].map((match) => match[1] ?? '').filter(Boolean);
      if (step === 'add' && unborn.length > 0) {
        state.unbornNested = [...new Set([...state.unbornNested, ...unborn])];
        rulesChanged = await hooks.refreshExcludes();
        needDiff = true;
        continue;
      }
      if (step === 'write-tree' && invalidObjectPattern.test(error.stderr) && !repairedIndex) {
        await reseedIndex(repo, state, limits.maxFileBytes);
        await hooks.refreshExcludes();
        repairedIndex = true;
        needDiff = true;
        continue;
      }
      if (step === 'update-ref' && (await clearRefLock(repo, error.stderr))) continue;
      throw new GitError(error.args, error.code, error.stderr, `snapshot failed at git ${step ?? 'sh'}`);
    }
    for (const item of output.staged) if (item.action === 'add') added.add(item.path);
    if (output.kind === 'same') return { tree: output.tree, changed: 0, changedPaths: [], toTarget: output.toTarget, added };

    const listed = output.listing ? scanTreeListing(output.listing, limits.maxFileBytes) : undefined;
    const entries = listed?.entries;
    const oversize = entries
      ? entries.filter((entry) => entry.mode !== gitlinkMode).map((entry) => ({ path: entry.path, bytes: entry.size, reason: 'larger than checkpoint_max_file_mb' }))
      : findOversize(repo.project.root, output.staged.filter((item) => item.action === 'add').map((item) => item.path), limits.maxFileBytes);
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
      needDiff = true;
      continue;
    }
    const gitlinks = entries
      ? entries.filter((entry) => entry.mode === gitlinkMode).map((entry) => entry.path)
      : request.seededEntries?.filter((entry) => entry.mode === 0o160000).map((entry) => entry.path);
    trackNested(repo.project.root, state, output.staged, gitlinks);
    const gitignoreChanged = output.staged.some((item) => path.posix.basename(item.path) === '.gitignore');
    if (gitignoreChanged && attempt === 0 && (await dropNewlyIgnored(repo))) {
      needDiff = true;
      continue;
    }
    const diffed = needDiff && output.diff ? parseRawDiff(output.diff).map((change) => change.path) : undefined;
    const changed = needDiff
      ? (diffed?.length ?? null)
      : listed
        ? listed.count
        : request.seededEntries
          ? firstCount(request.seededEntries, output.staged)
          : output.staged.length;
    // The first checkpoint "changes" every file: naming them all says nothing.
    const paths = first ? [] : (diffed ?? output.staged.map((item) => item.path.replace(/\/$/, '')));
    const commit = output.kind === 'tree' && commitHere ? await commitRoot(repo, output.tree, request) : output.commit;
    return { tree: output.tree, commit, changed, changedPaths: paths.slice(0, maxChangedPaths), toTarget: output.toTarget, added };
  }
  throw new Error('snapshot did not settle after repeated exclusions; run `rewind snapshot` again');
}

/** The first checkpoint's commit (no parent) and its ref; a ref lock left by a crash is cleared as the script's is. */
async function commitRoot(repo: ShadowRepo, tree: string, request: SnapshotRequest): Promise<string> {
  try {
    const commit = writeRootCommit(repo.gitDir, tree, request.message);
    try {
      createRef(repo.gitDir, request.ref, commit);
    } catch (error) {
      const lock = `${path.join(repo.gitDir, request.ref)}.lock`;
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !(await clearRefLockFile(repo, lock))) throw error;
      createRef(repo.gitDir, request.ref, commit);
    }
    return commit;
  } catch (error) {
    throw new GitError(['commit-tree'], null, messageOf(error), `snapshot failed writing its commit in ${repo.gitDir}`);
  }
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

async function removeFromIndex(repo: ShadowRepo, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await runGit(['--literal-pathspecs', ...repo.baseArgs, 'rm', '--cached', '-q', '--ignore-unmatch', '-r', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    cwd: repo.project.root,
    env: repo.env,
    input: `${paths.join('\0')}\0`,
  });
}

/**
 * Files in the shadow index that the rules now ignore and that the project itself does
 * not track (git status would no longer show them) leave the shadow index.
 * Returns whether any did.
 */
async function dropNewlyIgnored(repo: ShadowRepo): Promise<boolean> {
  const ignored = splitNul((await repo.git(['ls-files', '-z', '-c', '-i', '--exclude-standard'])).stdout);
  if (ignored.length === 0) return false;
  let trackedByProject = new Set<string>();
  if (repo.project.git) {
    // Everything the project tracks (git 2.39's ls-files takes no --pathspec-from-file).
    const listed = await runGit(['ls-files', '-z'], { cwd: repo.project.root, env: projectGitEnv(repo.sourceEnv) });
    trackedByProject = new Set(splitNul(listed.stdout));
  }
  const drop = ignored.filter((file) => !trackedByProject.has(file));
  await removeFromIndex(repo, drop);
  return drop.length > 0;
}

/** The project pruned objects our index borrowed: start again from its current index. */
async function reseedIndex(repo: ShadowRepo, state: StoreState, maxFileBytes: number): Promise<void> {
  fs.rmSync(repo.indexFile, { force: true });
  const { oversize } = await seedShadowIndex(repo, maxFileBytes);
  Object.assign(state.oversize, oversize);
}
