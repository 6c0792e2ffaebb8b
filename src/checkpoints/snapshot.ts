import fs from 'node:fs';
import path from 'node:path';
import { GitError, runGit, splitNul } from './git.js';
import { gitlinkMode, parseRawDiff, type RawChange } from './diffRaw.js';
import { parseScriptOutput, runSnapshotScript, scriptSteps, type ScriptInput, type ScriptOutput } from './snapshotScript.js';
import { clearStaleRefLock } from './maintenance.js';
import { projectGitEnv } from './gitEnv.js';
import type { ShadowRepo } from './shadowRepo.js';
import type { SkippedFile } from './record.js';
import type { StoreState } from './storeState.js';
import { seedShadowIndex } from './seedIndex.js';

/** What the snapshot needs from config.json. */
export interface SnapshotLimits {
  maxFileBytes: number;
}

export interface TreeSnapshot {
  tree: string;
  /** The new commit; absent when the tree equals the previous checkpoint's (or in tree mode). */
  commit?: string;
  changes: RawChange[];
  /** False when the previous tree could not be read (its borrowed objects are gone). */
  changesKnown: boolean;
}

export interface SnapshotRequest {
  prevCommit?: string;
  prevTree?: string;
  ref: string;
  message: string;
  mode: 'commit' | 'tree';
  /** Excludes changed since the last snapshot: files now ignored leave the shadow index. */
  rulesChanged: boolean;
}

/** Callbacks into the engine for the rare paths (new exclusions, index repair). */
export interface SnapshotHooks {
  refreshExcludes: () => Promise<boolean>;
}

const unbornPattern = /error: '(.+)\/' does not have a commit checked out/g;
const invalidObjectPattern = /invalid object \d+ [0-9a-f]+ for '(.+)'/;

function isRegularMode(mode: string): boolean {
  return mode === '100644' || mode === '100755';
}

/**
 * Stages the project's work tree into the shadow index and writes a tree (and in commit
 * mode a checkpoint commit and its ref). Files over the size cap that the add picked up
 * are taken out again and excluded from then on; nested repositories without a commit
 * are excluded; an index pointing at borrowed objects the project has since pruned is
 * re-seeded. Returns the tree and what changed since `prevTree`.
 */
export async function snapshotTree(repo: ShadowRepo, state: StoreState, limits: SnapshotLimits, request: SnapshotRequest, hooks: SnapshotHooks, walkFile: string, standardExclude: string): Promise<TreeSnapshot> {
  let rulesChanged = request.rulesChanged;
  let repairedIndex = false;
  for (let attempt = 0; attempt < 6; attempt++) {
    if (rulesChanged) await dropNewlyIgnored(repo);
    rulesChanged = false;
    const input: ScriptInput = {
      prevCommit: request.prevCommit,
      prevTree: request.prevTree,
      ref: request.ref,
      walkFile: request.mode === 'commit' ? walkFile : undefined,
      standardExclude,
      mode: request.mode,
      message: request.message,
    };
    let output: ScriptOutput;
    try {
      output = parseScriptOutput((await runSnapshotScript(repo, input)).stdout);
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      const step = scriptSteps[error.code ?? -1];
      const unborn = [...error.stderr.matchAll(unbornPattern)].map((match) => match[1] ?? '').filter(Boolean);
      if (step === 'add' && unborn.length > 0) {
        state.unbornNested = [...new Set([...state.unbornNested, ...unborn])];
        rulesChanged = await hooks.refreshExcludes();
        continue;
      }
      if (step === 'write-tree' && invalidObjectPattern.test(error.stderr) && !repairedIndex) {
        await reseedIndex(repo);
        repairedIndex = true;
        continue;
      }
      if (step === 'update-ref' && clearStaleRefLock(repo, error.stderr)) continue;
      throw new GitError(error.args, error.code, error.stderr, `snapshot failed at git ${step ?? 'sh'}`);
    }
    if (output.kind === 'same') {
      return { tree: output.tree, changes: [], changesKnown: true };
    }
    const changes = output.diff ? parseRawDiff(output.diff) : [];
    const oversize = findOversize(repo.project.root, changes, limits.maxFileBytes);
    const gitignoreChanged = changes.some((change) => path.posix.basename(change.path) === '.gitignore');
    trackNested(state, changes);
    if (oversize.length > 0) {
      for (const file of oversize) state.oversize[file.path] = file.bytes;
      await removeFromIndex(repo, oversize.map((file) => file.path));
      await hooks.refreshExcludes();
      continue;
    }
    if (gitignoreChanged && !request.rulesChanged && attempt === 0) {
      // A .gitignore changed: files it now ignores must leave the checkpoint too.
      if (await dropNewlyIgnored(repo)) continue;
    }
    return { tree: output.tree, commit: output.commit, changes, changesKnown: output.diff !== undefined };
  }
  throw new Error('snapshot did not settle after repeated exclusions; run `rewind snapshot` again');
}

/** Regular files added or modified by this step that are over the cap. */
function findOversize(root: string, changes: readonly RawChange[], maxBytes: number): SkippedFile[] {
  const found: SkippedFile[] = [];
  for (const change of changes) {
    if (change.status === 'D' || !isRegularMode(change.dstMode)) continue;
    try {
      const bytes = fs.lstatSync(path.join(root, change.path)).size;
      if (bytes > maxBytes) found.push({ path: change.path, bytes, reason: 'larger than checkpoint_max_file_mb' });
    } catch {
      // Gone already: nothing to leave out.
    }
  }
  return found;
}

function trackNested(state: StoreState, changes: readonly RawChange[]): void {
  const nested = new Set(state.nested);
  for (const change of changes) {
    if (change.dstMode === gitlinkMode && change.status !== 'D') nested.add(change.path);
    else if (change.srcMode === gitlinkMode) nested.delete(change.path);
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
    const listed = await runGit(['--literal-pathspecs', 'ls-files', '-z', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      cwd: repo.project.root,
      env: projectGitEnv(repo.sourceEnv),
      input: `${ignored.join('\0')}\0`,
    });
    trackedByProject = new Set(splitNul(listed.stdout));
  }
  const drop = ignored.filter((file) => !trackedByProject.has(file));
  await removeFromIndex(repo, drop);
  return drop.length > 0;
}

/** The project pruned objects our index borrowed: start again from its current index. */
async function reseedIndex(repo: ShadowRepo): Promise<void> {
  fs.rmSync(repo.indexFile, { force: true });
  await seedShadowIndex(repo);
}
