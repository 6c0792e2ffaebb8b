// The shadow repo's shape: no commit for an unchanged tree, a parent chain of checkpoint
// commits pinned by refs, and committed content borrowed through alternates, not copied.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitCount, shadowGit } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-chain-');
});
afterEach(() => sb.cleanup());

/** Loose objects of a repository (not its alternates), by type. */
function looseObjects(gitDir: string): Record<string, string[]> {
  const byType: Record<string, string[]> = {};
  const objects = path.join(gitDir, 'objects');
  for (const dir of fs.readdirSync(objects)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const rest of fs.readdirSync(path.join(objects, dir))) {
      const oid = dir + rest;
      const type = shadowGit(gitDir, 'cat-file', '-t', oid).trim();
      (byType[type] ??= []).push(oid);
    }
  }
  return byType;
}

function countObjects(gitDir: string): { count: number; inPack: number } {
  const fields = Object.fromEntries(
    shadowGit(gitDir, 'count-objects', '-v')
      .trim()
      .split('\n')
      .map((line) => line.split(': ') as [string, string]),
  );
  return { count: Number(fields.count), inPack: Number(fields['in-pack']) };
}

describe('checkpoint chain', () => {
  it('an unchanged tree makes no commit; each commit’s parent is the previous checkpoint; refs pin every id', async () => {
    const root = sb.repo('chain');
    const checkpoints = sb.open(root);
    const shadow = checkpoints.repo.gitDir;
    const snap = async () => (await checkpoints.snapshot()).record;

    const one = await snap();
    expect(one.deduped).toBe(false);
    expect(commitCount(shadow)).toBe(1);
    const two = await snap();
    expect(two).toMatchObject({ id: 2, deduped: true, commit: one.commit, tree: one.tree, changedSincePrevious: 0 });
    expect(commitCount(shadow)).toBe(1);

    write(root, 'a.txt', 'a\n');
    const three = await snap();
    expect(three).toMatchObject({ id: 3, deduped: false, changedSincePrevious: 1 });
    const four = await sb.open(root).snapshot();
    expect(four.record).toMatchObject({ id: 4, deduped: true, commit: three.commit });
    write(root, 'a.txt', 'a, edited\n');
    fs.rmSync(path.join(root, 'README.md'));
    const five = await snap();
    expect(five).toMatchObject({ id: 5, deduped: false, changedSincePrevious: 2 });
    expect(commitCount(shadow)).toBe(3);

    const records = checkpoints.list();
    expect(records.map((record) => record.id)).toEqual([1, 2, 3, 4, 5]);
    for (const record of records) {
      expect(shadowGit(shadow, 'rev-parse', '--verify', `refs/checkpoints/${record.id}`).trim(), `ref of #${record.id}`).toBe(record.commit);
      expect(shadowGit(shadow, 'rev-parse', `${record.commit}^{tree}`).trim()).toBe(record.tree);
    }
    // Parents: the first has none, each next one the previous checkpoint's commit.
    const parents = (commit: string) => shadowGit(shadow, 'rev-list', '--parents', '-n', '1', commit).trim().split(' ').slice(1);
    expect(parents(one.commit)).toEqual([]);
    expect(parents(three.commit)).toEqual([one.commit]);
    expect(parents(five.commit)).toEqual([three.commit]);
    expect(shadowGit(shadow, 'rev-list', five.commit).trim().split('\n')).toEqual([five.commit, three.commit, one.commit]);
    // The project's HEAD is recorded, not linked.
    const head = sb.git(root, 'rev-parse', 'HEAD').trim();
    expect(records.every((record) => record.projectHead === head)).toBe(true);
    expect(shadowGit(shadow, 'rev-list', '--all').includes(head)).toBe(false);
    // git log and diff work on the shadow repo.
    expect(shadowGit(shadow, 'diff', '--name-only', one.commit, five.commit).trim().split('\n')).toEqual(['README.md', 'a.txt']);
  });
});

describe('borrowed, not copied', () => {
  it('the first snapshot of a 300-file repository adds no blobs; alternates point at the project’s objects', async () => {
    const root = sb.repo('many');
    for (let i = 0; i < 300; i++) write(root, `dir${i % 10}/file${i}.txt`, `content of file ${i}\n`);
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'many files');
    const checkpoints = sb.open(root);
    const shadow = checkpoints.repo.gitDir;
    const { record } = await checkpoints.snapshot();
    expect(fs.readFileSync(path.join(shadow, 'objects', 'info', 'alternates'), 'utf8').trim()).toBe(path.join(root, '.git', 'objects'));
    expect(Number(shadowGit(shadow, 'ls-tree', '-r', '--name-only', record.tree).trim().split('\n').length)).toBe(301);
    const loose = looseObjects(shadow);
    expect(loose.blob ?? []).toEqual([]);
    expect(loose.commit).toEqual([record.commit]);
    const { count, inPack } = countObjects(shadow);
    expect(inPack).toBe(0);
    expect(count).toBeLessThanOrEqual(3);

    // One new file later: one new blob.
    write(root, 'dir0/new.txt', 'new\n');
    await checkpoints.snapshot();
    expect(looseObjects(shadow).blob ?? []).toHaveLength(1);
  });

  it('in a linked worktree, alternates point at the main repository’s objects', async () => {
    const main = sb.repo('main-of-worktree');
    const worktree = path.join(path.dirname(main), 'wt');
    sb.git(main, 'worktree', 'add', '-q', '-b', 'wt-branch', worktree);
    const checkpoints = sb.open(worktree);
    const { record } = await checkpoints.snapshot();
    expect(fs.readFileSync(path.join(checkpoints.repo.gitDir, 'objects', 'info', 'alternates'), 'utf8').trim()).toBe(path.join(main, '.git', 'objects'));
    expect(looseObjects(checkpoints.repo.gitDir)).toEqual({ commit: [record.commit] });
  });

  it('in a submodule, alternates point at the submodule’s own object store', async () => {
    const lib = sb.repo('sublib');
    const repo = sb.repo('super');
    sb.git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub');
    sb.git(repo, 'commit', '-q', '-m', 'submodule');
    const checkpoints = sb.open(path.join(repo, 'sub'));
    expect(checkpoints.project.root).toBe(path.join(repo, 'sub'));
    const { record } = await checkpoints.snapshot();
    expect(fs.readFileSync(path.join(checkpoints.repo.gitDir, 'objects', 'info', 'alternates'), 'utf8').trim()).toBe(path.join(repo, '.git', 'modules', 'sub', 'objects'));
    expect(looseObjects(checkpoints.repo.gitDir)).toEqual({ commit: [record.commit] });
  });
});
