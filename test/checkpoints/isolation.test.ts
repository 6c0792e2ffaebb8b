// The project's own git is never touched: every file of its git dir (and, for linked
// worktrees and submodules, its common dir) keeps its bytes, mode and mtime across
// several snapshots with edits in between.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, mtimes } from '../helpers/fingerprint.js';
import { actualTree, expectedTree } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { detachedHead, linkedWorktree, mergeInProgress, stagedChanges, withSubmodule } from '../helpers/repoShapes.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-isolation-');
});
afterEach(() => sb.cleanup());

/**
 * Fingerprints `gitDirs`, takes four snapshots of `cwd`'s project with edits in between
 * (modify, add in a new folder, delete, then nothing), checks each checkpoint holds
 * exactly the work tree, and that the fingerprints did not move.
 */
async function snapshotsLeaveGitAlone(cwd: string, gitDirs: string[], gitlinks: Record<string, string> = {}) {
  const before = gitDirs.map((dir) => fingerprint(dir));
  const timesBefore = gitDirs.map((dir) => mtimes(dir));
  const checkpoints = sb.open(cwd);
  const root = checkpoints.project.root;
  const shadow = checkpoints.repo.gitDir;
  const check = async (label: string) => {
    const { record } = await checkpoints.snapshot({ label });
    expect(actualTree(shadow, record.tree), label).toEqual(expectedTree(root, { gitlinks }));
    return record;
  };
  await check('as found');
  write(root, 'README.md', '# project, edited by the agent\n');
  write(root, 'new folder/untracked.txt', 'not in the project index\n');
  await check('after edits');
  fs.rmSync(path.join(root, 'README.md'));
  write(root, 'new folder/second.txt', 'two\n');
  await check('after a delete');
  const again = await sb.open(cwd).snapshot({ label: 'nothing changed' });
  expect(again.record.deduped).toBe(true);
  expect(gitDirs.map((dir) => fingerprint(dir)), 'same files, bytes and modes').toEqual(before);
  // Nothing was rewritten in place either (object files aside: see mtimes()).
  expect(gitDirs.map((dir) => mtimes(dir)), 'nothing rewritten').toEqual(timesBefore);
}

describe("the project's .git is byte-for-byte unchanged by snapshots", () => {
  it('in a normal repository on a branch', async () => {
    const repo = sb.repo('normal');
    write(repo, 'src/app.ts', 'export const a = 1;\n');
    sb.git(repo, 'add', '-A');
    sb.git(repo, 'commit', '-q', '-m', 'second');
    await snapshotsLeaveGitAlone(repo, [path.join(repo, '.git')]);
  });

  it('on a detached HEAD', async () => {
    const repo = detachedHead(sb, 'detached');
    const head = sb.git(repo, 'rev-parse', 'HEAD').trim();
    await snapshotsLeaveGitAlone(repo, [path.join(repo, '.git')]);
    expect(sb.open(repo).list().map((record) => record.projectHead)).toEqual([head, head, head, head]);
  });

  it('in the middle of a merge with a conflict', async () => {
    const repo = mergeInProgress(sb, 'merging');
    expect(fs.existsSync(path.join(repo, '.git', 'MERGE_HEAD'))).toBe(true);
    expect(sb.git(repo, 'ls-files', '-u')).toContain('shared.txt');
    expect(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8')).toContain('<<<<<<<');
    await snapshotsLeaveGitAlone(repo, [path.join(repo, '.git')]);
  });

  it('with staged changes (index differs from HEAD and from the work tree)', async () => {
    const repo = stagedChanges(sb, 'staged');
    expect(sb.git(repo, 'diff', '--cached', '--name-only').split('\n').filter(Boolean).sort()).toEqual(['a.txt', 'added.txt', 'gone.txt']);
    expect(sb.git(repo, 'diff', '--name-only').trim()).toBe('a.txt');
    await snapshotsLeaveGitAlone(repo, [path.join(repo, '.git')]);
  });

  it('with GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE of the project and a hostile global config in the environment', async () => {
    const repo = sb.repo('hostile-env');
    const globalConfig = path.join(sb.home, 'hostile-gitconfig');
    fs.writeFileSync(globalConfig, '[core]\n\tautocrlf = true\n\thooksPath = /nonexistent\n[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = false\n[status]\n\tshowUntrackedFiles = no\n[index]\n\tversion = 2\n');
    write(repo, 'crlf.txt', 'one\r\ntwo\r\n');
    const gitDir = path.join(repo, '.git');
    const before = fingerprint(gitDir);
    const timesBefore = mtimes(gitDir);
    const checkpoints = sb.open(repo, {}, {
      GIT_DIR: gitDir,
      GIT_INDEX_FILE: path.join(gitDir, 'index'),
      GIT_WORK_TREE: repo,
      GIT_OBJECT_DIRECTORY: path.join(gitDir, 'objects'),
      GIT_CONFIG_GLOBAL: globalConfig,
    });
    const { record } = await checkpoints.snapshot();
    write(repo, 'crlf.txt', 'one\r\ntwo\r\nthree\r\n');
    const second = await checkpoints.snapshot();
    expect(actualTree(checkpoints.repo.gitDir, second.record.tree)).toEqual(expectedTree(repo));
    expect(record.tree).not.toBe(second.record.tree);
    expect(fingerprint(gitDir)).toEqual(before);
    expect(mtimes(gitDir)).toEqual(timesBefore);
  });

  it('in a linked worktree, snapshotting from the worktree', async () => {
    const { main, worktree, gitDir } = linkedWorktree(sb);
    expect(gitDir).toBe(path.join(main, '.git', 'worktrees', 'linked'));
    const checkpoints = sb.open(worktree);
    expect(checkpoints.project).toEqual({ root: worktree, git: { gitDir, commonDir: path.join(main, '.git') } });
    // The common dir holds the worktree's git dir: both are covered, and the main checkout too.
    await snapshotsLeaveGitAlone(worktree, [path.join(main, '.git'), gitDir]);
    expect(fs.readFileSync(path.join(main, 'README.md'), 'utf8')).toBe('# project\n');
  });

  it('with a submodule', async () => {
    const repo = withSubmodule(sb, 'with-submodule');
    const subHead = sb.git(path.join(repo, 'sub'), 'rev-parse', 'HEAD').trim();
    expect(fs.statSync(path.join(repo, 'sub', '.git')).isFile()).toBe(true);
    // A file in the submodule touched (same bytes, new mtime), as a build or an editor
    // does: a `git status` in the submodule would refresh its index and rewrite it.
    const later = new Date(Date.now() - 100_000);
    fs.utimesSync(path.join(repo, 'sub', 'lib.c'), later, later);
    await snapshotsLeaveGitAlone(repo, [path.join(repo, '.git')], { sub: subHead });
    expect(sb.open(repo).list().at(-1)?.nested).toEqual(['sub']);
  });
});
