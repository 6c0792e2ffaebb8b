// The project's own git is never touched by a restore or a redo: every file of its git
// dir (and common dir) keeps its bytes, mode and mtime across snapshot -> change ->
// restore -> redo, in a normal repo, on a detached HEAD, mid-merge, with staged changes,
// in a linked worktree and with a submodule.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, mtimes } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { expectedChange, projectState, restoreJson, settleBackground, snapshotId, type State } from '../helpers/restoreKit.js';
import { createSandbox, runGitSync, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-git-');
});
afterEach(async () => {
  await settleBackground(sb.store);
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

  const redo = await rewind(['redo'], sb.env, root);
  expect(redo.stderr).toBe('');
  expect(redo.code).toBe(0);
  expect(projectState(root), 'after the redo').toEqual(stateB);

  expect(gitDirs.map((dir) => fingerprint(dir)), 'same files, bytes and modes').toEqual(before);
  expect(gitDirs.map((dir) => mtimes(dir)), 'nothing rewritten').toEqual(timesBefore);
}

function gitFails(dir: string, ...args: string[]): void {
  expect(() => runGitSync(sb.gitEnv, dir, args)).toThrow();
}

describe("the project's .git is byte-for-byte unchanged by restore and redo", () => {
  it('in a normal repository on a branch', async () => {
    const repo = sb.repo('normal');
    write(repo, 'src/app.ts', 'export const a = 1;\n');
    sb.git(repo, 'add', '-A');
    sb.git(repo, 'commit', '-q', '-m', 'second');
    write(repo, 'src/app.ts', 'export const a = 2;\n');
    sb.git(repo, 'stash', '-q');
    expect(fs.existsSync(path.join(repo, '.git', 'refs', 'stash'))).toBe(true);
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')]);
  });

  it('on a detached HEAD', async () => {
    const repo = sb.repo('detached');
    write(repo, 'b.txt', 'b\n');
    sb.git(repo, 'add', '-A');
    sb.git(repo, 'commit', '-q', '-m', 'second');
    sb.git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')]);
  });

  it('in the middle of a merge with a conflict', async () => {
    const repo = sb.repo('merging');
    write(repo, 'shared.txt', 'base\n');
    sb.git(repo, 'add', '-A');
    sb.git(repo, 'commit', '-q', '-m', 'base');
    sb.git(repo, 'checkout', '-q', '-b', 'other');
    write(repo, 'shared.txt', 'theirs\n');
    sb.git(repo, 'commit', '-q', '-am', 'theirs');
    sb.git(repo, 'checkout', '-q', 'main');
    write(repo, 'shared.txt', 'ours\n');
    sb.git(repo, 'commit', '-q', '-am', 'ours');
    gitFails(repo, 'merge', 'other');
    expect(fs.existsSync(path.join(repo, '.git', 'MERGE_HEAD'))).toBe(true);
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')], { edit: (root) => write(root, 'shared.txt', 'resolved by hand\n') });
    expect(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8')).toBe('resolved by hand\n');
  });

  it('with staged changes (index differs from HEAD and from the work tree)', async () => {
    const repo = sb.repo('staged');
    write(repo, 'a.txt', 'a1\n');
    write(repo, 'gone.txt', 'to be removed\n');
    sb.git(repo, 'add', '-A');
    sb.git(repo, 'commit', '-q', '-m', 'second');
    write(repo, 'a.txt', 'a2 staged\n');
    write(repo, 'added.txt', 'staged new file\n');
    sb.git(repo, 'add', 'a.txt', 'added.txt');
    sb.git(repo, 'rm', '-q', 'gone.txt');
    write(repo, 'a.txt', 'a3 in the work tree only\n');
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')], { edit: (root) => write(root, 'a.txt', 'a4 by the agent\n') });
    expect(sb.git(repo, 'diff', '--cached', '--name-only').split('\n').filter(Boolean).sort()).toEqual(['a.txt', 'added.txt', 'gone.txt']);
  });

  it('in a linked worktree, restoring from the worktree; the main checkout is untouched', async () => {
    const main = sb.repo('main-checkout');
    const worktree = path.join(path.dirname(main), 'linked');
    sb.git(main, 'worktree', 'add', '-q', '-b', 'feature', worktree);
    write(worktree, 'feature.txt', 'only in the worktree\n');
    sb.git(worktree, 'add', '-A');
    sb.git(worktree, 'commit', '-q', '-m', 'feature');
    const gitDir = sb.git(worktree, 'rev-parse', '--absolute-git-dir').trim();
    const mainFiles = projectState(main);
    await restoreAndRedoLeaveGitAlone(worktree, [path.join(main, '.git'), gitDir]);
    expect(projectState(main)).toEqual(mainFiles);
  });

  it('with a submodule: its files and its git dir are left alone', async () => {
    const lib = sb.repo('lib');
    write(lib, 'lib.c', 'int lib;\n');
    sb.git(lib, 'add', '-A');
    sb.git(lib, 'commit', '-q', '-m', 'lib');
    const repo = sb.repo('with-submodule');
    sb.git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub');
    sb.git(repo, 'commit', '-q', '-m', 'add submodule');
    await restoreAndRedoLeaveGitAlone(repo, [path.join(repo, '.git')], { nested: 'sub' });
  });
});
