// Borrowed objects can vanish when the project collects its own garbage: snapshots and
// listing must go on.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { actualTree, expectedTree, fileInTree } from '../helpers/shadow.js';
import { createSandbox, runGitSync, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-missing-');
});
afterEach(() => sb.cleanup());

function projectHas(root: string, oid: string): boolean {
  try {
    runGitSync(sb.gitEnv, root, ['cat-file', '-e', oid]);
    return true;
  } catch {
    return false;
  }
}

function pruneEverythingUnreachable(root: string): void {
  sb.git(root, 'reflog', 'expire', '--expire=now', '--all');
  sb.git(root, 'gc', '-q', '--prune=now');
}

describe('the project prunes objects the shadow borrowed', () => {
  it('after a deleted branch is collected, `snapshot` and `list --json` still work', async () => {
    const root = sb.repo('pruned-branch');
    sb.git(root, 'checkout', '-q', '-b', 'feature');
    write(root, 'feature.txt', 'only on the feature branch\n');
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'feature');
    const blob = sb.git(root, 'rev-parse', 'HEAD:feature.txt').trim();

    const first = await rewind(['snapshot', '--json'], sb.env, root);
    expect(first).toMatchObject({ code: 0, stderr: '' });

    sb.git(root, 'checkout', '-q', 'main');
    sb.git(root, 'branch', '-q', '-D', 'feature');
    pruneEverythingUnreachable(root);
    expect(projectHas(root, blob)).toBe(false);

    write(root, 'after.txt', 'written after the gc\n');
    const second = await rewind(['snapshot', '--json'], sb.env, root);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const record = JSON.parse(second.stdout) as { id: number; tree: string; deduped: boolean };
    expect(record).toMatchObject({ id: 2, deduped: false });
    const checkpoints = sb.open(root);
    expect(actualTree(checkpoints.repo.gitDir, record.tree)).toEqual(expectedTree(root));

    const listed = await rewind(['list', '--json'], sb.env, root);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: number }[]).map((row) => row.id)).toEqual([1, 2]);
    expect((await rewind(['list'], sb.env, root)).code).toBe(0);
  });

  it('a file still in the work tree whose borrowed blob was pruned is snapshotted again, exactly', async () => {
    const root = sb.repo('pruned-blob');
    write(root, 'keep.txt', 'still here after the reset\n');
    // Old mtime: the project's index holds it as clean, so the shadow's seeded copy does too.
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, 'keep.txt'), old, old);
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'keep');
    const blob = sb.git(root, 'rev-parse', 'HEAD:keep.txt').trim();
    const checkpoints = sb.open(root);
    const first = await checkpoints.snapshot();
    expect(fileInTree(checkpoints.repo.gitDir, first.record.tree, 'keep.txt')?.bytes.toString()).toBe('still here after the reset\n');

    // Undo the commit, keep the file as untracked, and collect: the blob is gone.
    sb.git(root, 'reset', '-q', 'HEAD~1');
    pruneEverythingUnreachable(root);
    expect(projectHas(root, blob)).toBe(false);
    expect(fs.readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('still here after the reset\n');

    write(root, 'other.txt', 'a change so the tree differs\n');
    const second = await sb.open(root).snapshot();
    expect(second.record.deduped).toBe(false);
    const stored = fileInTree(checkpoints.repo.gitDir, second.record.tree, 'keep.txt');
    expect(stored?.bytes.toString()).toBe('still here after the reset\n');
    expect(actualTree(checkpoints.repo.gitDir, second.record.tree)).toEqual(expectedTree(root));
    expect((await rewind(['list', '--json'], sb.env, root)).code).toBe(0);
  });
});
