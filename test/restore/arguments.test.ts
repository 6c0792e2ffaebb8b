// What `rewind restore` and `rewind diff` accept: checkpoint ids are plain positive
// decimals only, an empty or blank path is a usage error (a script's empty variable must
// not widen a restore to the whole project), and a path neither the checkpoint nor the
// project has is an error, not a restore that changes nothing. Nothing changes on any of them.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { projectState, redoRefs, snapshotId } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-args-');
});
afterEach(async () => {
  await sb.cleanup();
});

/** A project with checkpoint #1, edited since, and what a command must leave as it is. */
async function edited(name: string): Promise<{ root: string; unchanged: () => void }> {
  const root = sb.repo(name);
  write(root, 'a.txt', 'a1\n');
  write(root, 'src/b.txt', 'b1\n');
  expect(await snapshotId(rewind, sb.env, root, 'one')).toBe(1);
  write(root, 'a.txt', 'a2\n');
  write(root, 'src/b.txt', 'b2\n');
  const files = projectState(root);
  const ids = sb.open(root).list().map((record) => record.id);
  return {
    root,
    unchanged: () => {
      expect(projectState(root)).toEqual(files);
      const checkpoints = sb.open(root);
      expect(checkpoints.list().map((record) => record.id)).toEqual(ids);
      expect(redoRefs(checkpoints.repo.gitDir)).toEqual([]);
    },
  };
}

function oneLine(text: string): string {
  const lines = text.split('\n').filter(Boolean);
  expect(lines, text).toHaveLength(1);
  return lines[0] ?? '';
}

describe('checkpoint ids', () => {
  it.each(['0x1', '+1', '01', ' 1', '1 ', '1e0', '1.0', '0', '#', '1_0', '١'])('%j is a usage error for restore and diff, changing nothing', async (id) => {
    const { root, unchanged } = await edited('ids');
    for (const argv of [['restore', id, '--yes'], ['restore', id, '--dry-run'], ['diff', id]]) {
      const result = await rewind(argv, sb.env, root);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(oneLine(result.stderr)).toMatch(/is not a checkpoint id: ids are whole numbers/);
    }
    unchanged();
  });

  it('1e9 is not checkpoint #1000000000 but a usage error; 1000000000 is "no such checkpoint"', async () => {
    const { root, unchanged } = await edited('big-ids');
    expect((await rewind(['restore', '1e9', '--yes'], sb.env, root)).code).toBe(2);
    const plain = await rewind(['restore', '1000000000', '--yes'], sb.env, root);
    expect(plain.code).toBe(1);
    expect(oneLine(plain.stderr)).toMatch(/no checkpoint #1000000000/);
    unchanged();
  });

  it('1 and #1 are checkpoint #1', async () => {
    const { root } = await edited('good-ids');
    expect((await rewind(['diff', '1', '--name-status'], sb.env, root)).stdout).toBe('M\ta.txt\nM\tsrc/b.txt\n');
    expect((await rewind(['diff', '#1', '--name-status'], sb.env, root)).stdout).toBe('M\ta.txt\nM\tsrc/b.txt\n');
  });
});

describe('paths given to --only and to diff', () => {
  it.each(['', ' ', '\t'])('an empty or blank --only (%j) is a usage error, not the whole project', async (blank) => {
    const { root, unchanged } = await edited('blank-only');
    for (const argv of [['restore', '1', '--yes', '--only', blank], ['restore', '1', '--yes', '--only', 'a.txt', '--only', blank], ['diff', '1', blank]]) {
      const result = await rewind(argv, sb.env, root);
      expect(result.code, JSON.stringify(argv)).toBe(2);
      expect(oneLine(result.stderr)).toMatch(/empty path/);
    }
    unchanged();
  });

  it('a path neither the checkpoint nor the project has is an error naming it, changing nothing', async () => {
    const { root, unchanged } = await edited('unknown-only');
    for (const argv of [['restore', '1', '--yes', '--only', 'srcc'], ['restore', '1', '--dry-run', '--only', 'src/nope.txt'], ['diff', '1', 'srcc']]) {
      const result = await rewind(argv, sb.env, root);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(oneLine(result.stderr)).toMatch(/"srcc"|"src\/nope\.txt"/);
      expect(result.stderr).toMatch(/neither in checkpoint #1 nor in the project/);
    }
    unchanged();
  });

  it('a path only the checkpoint has, or only the project has, is fine', async () => {
    const { root } = await edited('known-only');
    fs.rmSync(path.join(root, 'src'), { recursive: true });
    write(root, 'later.txt', 'made after #1\n');
    const inCheckpoint = await rewind(['restore', '1', '--yes', '--json', '--only', 'src'], sb.env, root);
    expect(inCheckpoint.stderr).toBe('');
    expect(JSON.parse(inCheckpoint.stdout)).toMatchObject({ changed: ['src/b.txt'], deleted: [] });
    const onDisk = await rewind(['restore', '1', '--yes', '--json', '--only', 'later.txt'], sb.env, root);
    expect(JSON.parse(onDisk.stdout)).toMatchObject({ changed: [], deleted: ['later.txt'] });
    // A folder and a file in it, together.
    expect((await rewind(['restore', '1', '--dry-run', '--only', 'src', '--only', 'src/b.txt'], sb.env, root)).code).toBe(0);
    // `.` is the whole project, not an empty path.
    const all = await rewind(['restore', '1', '--yes', '--json', '--only', '.'], sb.env, root);
    expect(JSON.parse(all.stdout)).toMatchObject({ changed: ['a.txt'], deleted: [] });
  });
});
