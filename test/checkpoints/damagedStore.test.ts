// Issue 11 item 7: a damaged store never wedges the commands. What can be rebuilt is (a
// garbage shadow index, a garbage or missing config, a missing HEAD); a shadow repository
// that is gone starts afresh, and one line says which checkpoints were lost.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { projectState } from '../helpers/restoreKit.js';
import { fileInTree } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-damaged-');
});
afterEach(() => sb.cleanup());

async function twoCheckpoints(root: string): Promise<void> {
  write(root, 'f.txt', 'one\n');
  expect((await rewind(['snapshot', '--label', 'one'], sb.env, root)).code).toBe(0);
  write(root, 'f.txt', 'two\n');
  expect((await rewind(['snapshot', '--label', 'two'], sb.env, root)).code).toBe(0);
}

function noInternalError(result: { code: number; stderr: string }, what: string): void {
  expect(result.stderr, what).not.toMatch(/internal error/);
  expect(result.code, `${what}: ${result.stderr}`).toBe(0);
}

describe('a damaged store', () => {
  it.each([
    ['a garbage index', (gitDir: string) => fs.writeFileSync(path.join(gitDir, 'index'), Buffer.from('garbage, not an index at all'))],
    ['an index with a good header and a truncated body', (gitDir: string) => fs.writeFileSync(path.join(gitDir, 'index'), Buffer.concat([Buffer.from('DIRC'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 9]), Buffer.alloc(30, 7)]))],
    ['a garbage config', (gitDir: string) => fs.writeFileSync(path.join(gitDir, 'config'), '[core\nthis is not = config\n')],
    ['no config', (gitDir: string) => fs.rmSync(path.join(gitDir, 'config'))],
    ['no HEAD', (gitDir: string) => fs.rmSync(path.join(gitDir, 'HEAD'))],
  ])('%s is rebuilt: snapshot, list, diff, restore and redo work, exactly', async (_what, damage) => {
    const root = sb.repo('rebuild');
    await twoCheckpoints(root);
    damage(sb.open(root).repo.gitDir);
    write(root, 'f.txt', 'three\n');
    for (const argv of [['list'], ['diff', '1'], ['restore', '1', '--dry-run'], ['snapshot', '--label', 'three']]) noInternalError(await rewind(argv, sb.env, root), argv.join(' '));
    const engine = sb.open(root);
    const newest = engine.list().at(-1);
    expect(newest?.label).toBe('three');
    expect(fileInTree(engine.repo.gitDir, newest?.tree ?? '', 'f.txt')?.bytes.toString()).toBe('three\n');
    const before = projectState(root);
    noInternalError(await rewind(['restore', '1', '--yes'], sb.env, root), 'restore');
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('one\n');
    noInternalError(await rewind(['redo', '--yes'], sb.env, root), 'redo');
    expect(projectState(root)).toEqual(before);
  });

  it('a deleted shadow repository: one line says what was lost, the list keeps them, new checkpoints work', async () => {
    const root = sb.repo('deleted');
    await twoCheckpoints(root);
    fs.rmSync(sb.open(root).repo.gitDir, { recursive: true });
    const listed = await rewind(['list'], sb.env, root);
    expect(listed.code).toBe(0);
    expect(listed.stderr.trim().split('\n')).toHaveLength(1);
    expect(listed.stderr).toMatch(/checkpoint\(s\) #1-#2 can no longer be restored/);
    expect(listed.stdout).toMatch(/no longer restorable/);
    write(root, 'f.txt', 'three\n');
    const taken = await rewind(['snapshot', '--label', 'three'], sb.env, root);
    expect(taken).toMatchObject({ code: 0, stderr: '' });
    expect(taken.stdout).toMatch(/^checkpoint #3 /);
    const restore = await rewind(['restore', '1', '--yes'], sb.env, root);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/checkpoint #1 is no longer restorable: its shadow repository was deleted or damaged; nothing was changed/);
    expect(restore.stderr).not.toMatch(/internal error/);
    write(root, 'f.txt', 'four\n');
    noInternalError(await rewind(['restore', '3', '--yes'], sb.env, root), 'restore 3');
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('three\n');
  });
});
