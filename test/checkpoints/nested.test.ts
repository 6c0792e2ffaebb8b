// Nested repositories are recorded as gitlinks; their own files and .git are not ours.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, mtimes } from '../helpers/fingerprint.js';
import { actualTree, expectedTree, readTree, treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-nested-');
});
afterEach(() => sb.cleanup());

/** A repository of its own at `root`/`name`, holding `file` (committed when `commit`). */
function nestedRepo(root: string, name: string, file: string, commit: boolean): string {
  const nested = path.join(root, name);
  fs.mkdirSync(nested, { recursive: true });
  sb.git(nested, 'init', '-q', '-b', 'main');
  write(nested, file, `${file}\n`);
  if (commit) {
    sb.git(nested, 'add', '-A');
    sb.git(nested, 'commit', '-q', '-m', file);
  }
  return nested;
}

describe('nested repositories', () => {
  it.each([
    ['inside a git project', true],
    ['inside a plain folder', false],
  ])('a nested repo with a commit is a gitlink, its files are out, its .git untouched (%s)', async (_name, isGit) => {
    const root = isGit ? sb.repo('outer') : sb.folder('outer');
    write(root, 'app.txt', 'outer app\n');
    const nested = path.join(root, 'vendor', 'lib');
    fs.mkdirSync(nested, { recursive: true });
    sb.git(nested, 'init', '-q', '-b', 'main');
    write(nested, 'lib.c', 'int lib;\n');
    sb.git(nested, 'add', '-A');
    sb.git(nested, 'commit', '-q', '-m', 'lib');
    const nestedHead = sb.git(nested, 'rev-parse', 'HEAD').trim();
    const nestedGit = path.join(nested, '.git');
    const before = fingerprint(nestedGit);
    const timesBefore = mtimes(nestedGit);

    const checkpoints = sb.open(root);
    const first = await checkpoints.snapshot();
    const shadow = checkpoints.repo.gitDir;
    expect(readTree(shadow, first.record.tree).get('vendor/lib')).toEqual({ mode: '160000', type: 'commit', oid: nestedHead });
    expect(treePaths(shadow, first.record.tree).filter((file) => file.startsWith('vendor/'))).toEqual(['vendor/lib']);
    expect(actualTree(shadow, first.record.tree)).toEqual(expectedTree(root, { gitlinks: { 'vendor/lib': nestedHead } }));
    expect(first.record.nested).toEqual(['vendor/lib']);

    // A file in the nested repo touched (same bytes, new mtime), as a build or an editor
    // does: a `git status` inside it would refresh its index and rewrite it.
    const touched = new Date(Date.now() - 100_000);
    fs.utimesSync(path.join(nested, 'lib.c'), touched, touched);
    write(root, 'app.txt', 'outer app, edited\n');
    const second = await checkpoints.snapshot();
    expect(second.record.nested).toEqual(['vendor/lib']);
    write(nested, 'lib.c', 'int lib = 2;\n');
    write(root, 'app.txt', 'outer app, edited again\n');
    const third = await checkpoints.snapshot();
    expect(readTree(shadow, third.record.tree).get('vendor/lib')?.oid).toBe(nestedHead);
    expect(fingerprint(nestedGit)).toEqual(before);
    expect(mtimes(nestedGit)).toEqual(timesBefore);
  });

  it('a nested repo without a commit does not break the snapshot, is reported, and becomes a gitlink once it has a commit', async () => {
    const root = sb.repo('outer-unborn');
    const nested = nestedRepo(root, 'fresh', 'draft.txt', false);
    write(root, 'app.txt', 'app\n');
    const checkpoints = sb.open(root);
    const shadow = checkpoints.repo.gitDir;

    const first = await checkpoints.snapshot();
    expect(treePaths(shadow, first.record.tree)).toEqual(['README.md', 'app.txt']);
    expect(first.record.skipped).toEqual([{ path: 'fresh/', bytes: 0, reason: expect.stringMatching(/without a commit/) }]);
    expect(first.record.nested).toEqual([]);

    write(root, 'app.txt', 'app, edited\n');
    const second = await checkpoints.snapshot();
    expect(treePaths(shadow, second.record.tree)).toEqual(['README.md', 'app.txt']);
    expect(second.record.skipped.map((file) => file.path)).toEqual(['fresh/']);

    sb.git(nested, 'add', '-A');
    sb.git(nested, 'commit', '-q', '-m', 'first in nested');
    const head = sb.git(nested, 'rev-parse', 'HEAD').trim();
    const third = await checkpoints.snapshot();
    expect(readTree(shadow, third.record.tree).get('fresh')).toEqual({ mode: '160000', type: 'commit', oid: head });
    expect(third.record.skipped).toEqual([]);
    expect(third.record.nested).toEqual(['fresh']);
  });

  it('a nested repo whose .git is removed is a folder of files from then on: they are checkpointed and restored', async () => {
    const root = sb.repo('outer-unlinked');
    const nested = nestedRepo(root, 'sub', 'f.txt', true);
    // An uninitialised submodule: an empty folder the project holds as a gitlink; it stays one.
    const head = sb.git(nested, 'rev-parse', 'HEAD').trim();
    fs.mkdirSync(path.join(root, 'empty-sub'));
    sb.git(root, 'update-index', '--add', '--cacheinfo', `160000,${head},empty-sub`);
    sb.git(root, 'commit', '-q', '-m', 'an uninitialised submodule');
    const checkpoints = sb.open(root);
    const shadow = sb.open(root).repo.gitDir;
    const first = await checkpoints.snapshot({ label: 'nested' });
    expect(readTree(shadow, first.record.tree).get('sub')?.mode).toBe('160000');

    fs.rmSync(path.join(nested, '.git'), { recursive: true, force: true });
    write(nested, 'f.txt', 'changed once it is no repository\n');
    const second = await checkpoints.snapshot({ label: 'plain' });
    expect(second.record.nested).toEqual(['empty-sub']);
    expect(treePaths(shadow, second.record.tree).filter((file) => file.startsWith('sub'))).toEqual(['sub/f.txt']);
    expect(readTree(shadow, second.record.tree).get('empty-sub')).toEqual({ mode: '160000', type: 'commit', oid: head });

    write(nested, 'f.txt', 'edited by the agent\n');
    await checkpoints.snapshot({ label: 'edited' });
    await checkpoints.restore(second.record.id);
    expect(fs.readFileSync(path.join(nested, 'f.txt'), 'utf8')).toBe('changed once it is no repository\n');
  });
});

