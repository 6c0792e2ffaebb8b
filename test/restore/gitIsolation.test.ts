// The project's own git is never touched by a restore or a redo: every file of its git
// dir (and common dir) keeps its bytes, mode and mtime across snapshot -> change ->
// restore -> redo, in a normal repo, on a detached HEAD, mid-merge, with staged changes,
// in a linked worktree and with a submodule.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, mtimes } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { expectedChange, projectState, restoreJson, snapshotId, type State } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { commit, detachedHead, linkedWorktree, mergeInProgress, stagedChanges, withSubmodule } from '../helpers/repoShapes.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-git-');
});
afterEach(async () => {
  await sb.cleanup();
});

interface Options {
  /** A nested repository (submodule) inside the project: its files are edited and must stay edited. */
  nested?: string;
  /** More edits after the checkpoint (a conflict resolved by hand, say). */
  edit?: (root: string) => void;
}

/** `state` with the entries under `nested` taken from `from`. */
function withNested(state: State, from: State, nested: string | undefined): State {
  if (!nested) return state;
  const inside = (file: string) => file === nested || file.startsWith(`${nested}/`);
  return Object.fromEntries([...Object.entries(state).filter(([file]) => !inside(file)), ...Object.entries(from).filter(([file]) => inside(file))].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Snapshot of `cwd`'s project (A), edits (modify, create in a new folder, delete a
 * file), restore A, redo; checks the files at each step and that `gitDirs` did not move.
 */
async function restoreAndRedoLeaveGitAlone(cwd: string, gitDirs: string[], options: Options = {}): Promise<void> {
  const before = gitDirs.map((dir) => fingerprint(dir));
  const timesBefore = gitDirs.map((dir) => mtimes(dir));
  const root = sb.open(cwd).project.root;
  write(root, 'present-at-A.txt', 'untracked, present at the checkpoint\n');
  const stateA = projectState(root);
  const id = await snapshotId(rewind, sb.env, root, 'A');

  write(root, 'README.md', '# project, edited by the agent\n');
  write(root, 'new folder/untracked.txt', 'created after A\n');
  fs.rmSync(path.join(root, 'present-at-A.txt'));
  options.edit?.(root);
  if (options.nested) write(root, path.join(options.nested, 'edited-in-nested.txt'), 'rewind never touches nested repositories\n');
  const stateB = projectState(root);

  const restored = await restoreJson(rewind, sb.env, root, id);
  expect(projectState(root), 'after the restore').toEqual(withNested(stateA, stateB, options.nested));
  const want = expectedChange(withNested(stateB, stateA, options.nested), stateA);
  expect([...restored.changed].sort()).toEqual(want.changed);
  expect([...restored.deleted].sort()).toEqual(want.deleted);
  expect(want.changed.length + want.deleted.length).toBeGreaterThanOrEqual(3);

  const redo = await rewind(['redo', '--yes'], sb.env, root);
  expect(redo.stderr).toBe('');
  expect(redo.code).toBe(0);
  expect(projectState(root), 'after the redo').toEqual(stateB);

  expect(gitDirs.map((dir) => fingerprint(dir)), 'same files, bytes and modes').toEqual(before);
  expect(gitDirs.map((dir) => mtimes(dir)), 'nothing rewritten').toEqual(timesBefore);
}

describe("the project's .git is byte-for-byte unchanged by restore and redo", () => {
  it('in a normal repository on a branch', async () => {
    const repo = sb.repo('normal');
    commit(sb, repo, { 'src/app.ts': 'export const a = 1;\n' }, 'second');
    write(repo, 'src/app.ts', 'export const a = 2;\n');
    sb.git(repo, 'stash', '-q');
    expect(fs.existsSync(path.join(repo, '.git', 'refs', 'stash'))).toBe(true);
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')]);
  });

  it('on a detached HEAD', async () => {
    const repo = detachedHead(sb, 'detached');
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')]);
  });

  it('in the middle of a merge with a conflict', async () => {
    const repo = mergeInProgress(sb, 'merging');
    expect(fs.existsSync(path.join(repo, '.git', 'MERGE_HEAD'))).toBe(true);
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')], { edit: (root) => write(root, 'shared.txt', 'resolved by hand\n') });
    expect(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8')).toBe('resolved by hand\n');
  });

  it('with staged changes (index differs from HEAD and from the work tree)', async () => {
    const repo = stagedChanges(sb, 'staged');
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')], { edit: (root) => write(root, 'a.txt', 'a4 by the agent\n') });
    expect(sb.git(repo, 'diff', '--cached', '--name-only').split('\n').filter(Boolean).sort()).toEqual(['a.txt', 'added.txt', 'gone.txt']);
  });

  it('in a linked worktree, restoring from the worktree; the main checkout is untouched', async () => {
    const { main, worktree, gitDir } = linkedWorktree(sb);
    const mainFiles = projectState(main);
    await restoreAndRedoLeaveGitAlone(worktree, [path.join(main, '.git'), gitDir]);
    expect(projectState(main)).toEqual(mainFiles);
  });

  it('with a submodule: its files and its git dir are left alone', async () => {
    const repo = withSubmodule(sb, 'with-submodule');
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')], { nested: 'sub' });
  });
});
