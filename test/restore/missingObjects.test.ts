// A checkpoint whose borrowed objects the project's own `git gc --prune` collected cannot
// be restored: the restore says so clearly and changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, mtimes } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { projectState, redoRefs, restoreLeftovers, snapshotId, stamps } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { projectHas, pruneEverythingUnreachable } from '../helpers/repoShapes.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-missing-');
});
afterEach(async () => {
  await sb.cleanup();
});


/**
 * A project whose checkpoint #1 borrowed objects that are then pruned. With `wholeTree`
 * the checkpoint's tree is exactly a commit's tree (the tree itself is borrowed);
 * otherwise an untracked file makes the tree the shadow's own and only blobs are borrowed.
 */
async function prunedCheckpoint(name: string, wholeTree: boolean): Promise<{ root: string; id: number }> {
  const root = sb.repo(name);
  sb.git(root, 'checkout', '-q', '-b', 'feature');
  write(root, 'feature.txt', 'only on the feature branch\n');
  write(root, 'shared.txt', 'shared, feature version\n');
  sb.git(root, 'add', '-A');
  sb.git(root, 'commit', '-q', '-m', 'feature');
  if (!wholeTree) write(root, 'untracked.txt', 'not in any commit\n');
  const blob = sb.git(root, 'rev-parse', 'HEAD:feature.txt').trim();
  const id = await snapshotId(rewind, sb.env, root, 'on the feature branch');

  sb.git(root, 'checkout', '-q', 'main');
  sb.git(root, 'branch', '-q', '-D', 'feature');
  pruneEverythingUnreachable(sb, root);
  expect(projectHas(sb, root, blob)).toBe(false);
  // Work after the gc: a restore of #1 would write, create and delete several files.
  write(root, 'README.md', '# project, edited after the gc\n');
  write(root, 'shared.txt', 'shared, main version\n');
  write(root, 'later.txt', 'created after the checkpoint\n');
  await snapshotId(rewind, sb.env, root, 'after the gc');
  write(root, 'README.md', '# project, edited again, not checkpointed\n');
  return { root, id };
}

describe('restoring a checkpoint whose borrowed objects were pruned', () => {
  it.each([
    ['only its blobs were borrowed', false],
    ['its whole tree was borrowed', true],
  ])('%s: exit 1 with "checkpoint #N is no longer restorable", nothing changed', async (_name, wholeTree) => {
    const { root, id } = await prunedCheckpoint(wholeTree ? 'whole-tree' : 'blobs', wholeTree);
    const checkpoints = sb.open(root);
    const gitDir = path.join(root, '.git');
    const before = { files: projectState(root), stamps: stamps(root), git: fingerprint(gitDir), gitTimes: mtimes(gitDir), redo: redoRefs(checkpoints.repo.gitDir) };

    for (const argv of [['restore', String(id), '--yes'], ['restore', String(id), '--yes', '--json']]) {
      const result = await rewind(argv, sb.env, root);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stdout, argv.join(' ')).toBe('');
      expect(result.stderr, argv.join(' ')).toMatch(new RegExp(`^rewind: checkpoint #${id} is no longer restorable\\b.*\\n$`));
      expect(result.stderr.split('\n')).toHaveLength(2);
      expect(projectState(root)).toEqual(before.files);
      expect(stamps(root)).toEqual(before.stamps);
      expect(fingerprint(gitDir)).toEqual(before.git);
      expect(mtimes(gitDir)).toEqual(before.gitTimes);
      expect(redoRefs(checkpoints.repo.gitDir)).toEqual(before.redo);
      expect(restoreLeftovers(checkpoints.store.root, root)).toEqual([]);
    }
    // Nothing to undo: the failed restore pushed nothing.
    const redo = await rewind(['redo', '--yes'], sb.env, root);
    expect(redo.code).toBe(1);
    expect(redo.stderr).toMatch(/nothing to undo/);
    expect(projectState(root)).toEqual(before.files);
  });

  it.each([
    ['only its blobs were borrowed', false],
    ['its whole tree was borrowed', true],
  ])('%s: --dry-run says the checkpoint is no longer restorable instead of showing a plan it cannot carry out', async (_name, wholeTree) => {
    const { root, id } = await prunedCheckpoint(wholeTree ? 'dry-whole-tree' : 'dry-blobs', wholeTree);
    const before = { files: projectState(root), stamps: stamps(root) };
    const result = await rewind(['restore', String(id), '--dry-run'], sb.env, root);
    expect(projectState(root)).toEqual(before.files);
    expect(stamps(root)).toEqual(before.stamps);
    expect(result.stderr, `stdout was: ${result.stdout}`).toMatch(new RegExp(`checkpoint #${id} is no longer restorable`));
    expect(result.code).toBe(1);
  });

  it('a failed restore adds no checkpoint to the list', async () => {
    const { root, id } = await prunedCheckpoint('no-stray-checkpoint', false);
    const ids = () => sb.open(root).list().map((record) => record.id);
    const before = ids();
    const result = await rewind(['restore', String(id), '--yes'], sb.env, root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no longer restorable/);
    expect(ids(), 'the list after a restore that changed nothing').toEqual(before);
  });

  it('other checkpoints stay restorable after the gc', async () => {
    const { root } = await prunedCheckpoint('others', false);
    const after = sb.open(root).list().find((record) => record.label === 'after the gc');
    expect(after).toBeDefined();
    const result = await rewind(['restore', String(after?.id), '--yes'], sb.env, root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toBe('# project, edited after the gc\n');
  });

  it('a checkpoint whose borrowed .gitignore was pruned is no longer restorable (its rules cannot be read), for the plan and the restore', async () => {
    const root = sb.repo('pruned-rules');
    sb.git(root, 'checkout', '-q', '-b', 'feature');
    write(root, '.gitignore', '# a rule only the feature branch has\n*.feature-only\n');
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'feature rules');
    // The checkpoint's tree is the shadow's own; the .gitignore blob in it is borrowed.
    write(root, 'untracked.txt', 'not in any commit\n');
    const id = await snapshotId(rewind, sb.env, root, 'with the feature rules');
    sb.git(root, 'checkout', '-q', 'main');
    sb.git(root, 'branch', '-q', '-D', 'feature');
    pruneEverythingUnreachable(sb, root);
    // A file the restore would delete: what the target's rules say about it cannot be read.
    write(root, 'later.txt', 'created after the checkpoint\n');
    const before = projectState(root);
    for (const argv of [['restore', String(id), '--dry-run'], ['restore', String(id), '--yes'], ['diff', String(id)]]) {
      const result = await rewind(argv, sb.env, root);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^rewind: checkpoint #${id} is no longer restorable\\b.*\\n$`));
    }
    expect(projectState(root)).toEqual(before);
    expect(redoRefs(sb.open(root).repo.gitDir)).toEqual([]);
  });
});

