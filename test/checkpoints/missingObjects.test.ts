// Borrowed objects can vanish when the project collects its own garbage: snapshots and
// listing must go on.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { actualTree, expectedTree, fileInTree, shadowGit } from '../helpers/shadow.js';
import { createSandbox, runGitSync, write, type Sandbox } from '../helpers/tempRepo.js';
import { commitOnFeatureBranch, dropFeatureBranch, projectHas, pruneEverythingUnreachable } from '../helpers/repoShapes.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-missing-');
});
afterEach(() => sb.cleanup());


describe('the project prunes objects the shadow borrowed', () => {
  it('after a deleted branch is collected, `snapshot` and `list --json` still work', async () => {
    const root = sb.repo('pruned-branch');
    const blob = commitOnFeatureBranch(sb, root);

    const first = await rewind(['snapshot', '--json'], sb.env, root);
    expect(first).toMatchObject({ code: 0, stderr: '' });

    dropFeatureBranch(sb, root);
    expect(projectHas(sb, root, blob)).toBe(false);

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
    pruneEverythingUnreachable(sb, root);
    expect(projectHas(sb, root, blob)).toBe(false);
    expect(fs.readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('still here after the reset\n');

    write(root, 'other.txt', 'a change so the tree differs\n');
    const second = await sb.open(root).snapshot();
    expect(second.record.deduped).toBe(false);
    const stored = fileInTree(checkpoints.repo.gitDir, second.record.tree, 'keep.txt');
    expect(stored?.bytes.toString()).toBe('still here after the reset\n');
    expect(actualTree(checkpoints.repo.gitDir, second.record.tree)).toEqual(expectedTree(root));
    expect((await rewind(['list', '--json'], sb.env, root)).code).toBe(0);
  });

  it('maintenance survives: gc fails on the broken chain, the repair takes the pruned checkpoint out, gc works again', async () => {
    const root = sb.repo('pruned-maintenance');
    commitOnFeatureBranch(sb, root);
    const checkpoints = sb.open(root);
    const one = await checkpoints.snapshot({ label: 'on the feature branch' });
    dropFeatureBranch(sb, root);
    write(root, 'two.txt', 'two\n');
    const two = await checkpoints.snapshot({ label: 'two' });
    write(root, 'three.txt', 'three\n');
    const three = await checkpoints.snapshot({ label: 'three' });
    const shadow = checkpoints.repo.gitDir;
    const gc = () => {
      try {
        runGitSync(sb.gitEnv, root, [`--git-dir=${shadow}`, 'gc', '--quiet', '--prune=now']);
        return 0;
      } catch {
        return 1;
      }
    };
    expect(gc()).toBe(1);

    // The background gc leaves a marker; the next listing repairs and says what was lost.
    fs.writeFileSync(path.join(checkpoints.store.root, 'needs-repair'), '');
    const listed = await rewind(['list'], sb.env, root);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(`#${one.record.id} can no longer be restored`);
    expect(listed.stdout).toContain('no longer restorable');
    expect(fs.existsSync(path.join(checkpoints.store.root, 'needs-repair'))).toBe(false);

    expect(gc()).toBe(0);
    const records = checkpoints.list();
    expect(records.map((record) => [record.id, record.unrestorable ?? false])).toEqual([
      [one.record.id, true],
      [two.record.id, false],
      [three.record.id, false],
    ]);
    // Same trees, a shorter chain: #3 sits on #2, which is now the root.
    expect(records[1]?.tree).toBe(two.record.tree);
    expect(records[2]?.tree).toBe(three.record.tree);
    expect(shadowGit(shadow, 'rev-parse', `${records[2]?.commit}^`).trim()).toBe(records[1]?.commit);
    expect(shadowGit(shadow, 'rev-list', '--count', `refs/checkpoints/${three.record.id}`).trim()).toBe('2');
    expect(shadowGit(shadow, 'for-each-ref', '--format=%(refname)', 'refs/checkpoints/').trim().split('\n').sort()).toEqual(
      [`refs/checkpoints/${two.record.id}`, `refs/checkpoints/${three.record.id}`].sort(),
    );
    expect(actualTree(shadow, records[2]?.tree ?? '')).toEqual(expectedTree(root));

    // The chain goes on from the newest checkpoint.
    write(root, 'four.txt', 'four\n');
    const four = await checkpoints.snapshot({ label: 'four' });
    expect(shadowGit(shadow, 'rev-parse', `${four.record.commit}^`).trim()).toBe(records[2]?.commit);
    expect(await checkpoints.repair()).toEqual({ broken: [], rewritten: 0 });
  });
});
