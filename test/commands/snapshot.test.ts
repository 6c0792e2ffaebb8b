// `rewind snapshot`: output, refusals and errors, through the real CLI dispatch.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-snapshot-');
});
afterEach(() => sb.cleanup());

interface SnapshotJson {
  id: number;
  commit: string;
  tree: string;
  deduped: boolean;
  skipped: { path: string; bytes: number; reason: string }[];
}

function oneLine(text: string): string {
  const lines = text.split('\n');
  expect(lines.at(-1)).toBe('');
  expect(lines).toHaveLength(2);
  return lines[0] ?? '';
}

describe('rewind snapshot', () => {
  it('--json prints exactly id, commit, tree, deduped, unchanged, skipped; a repeat adds nothing, a labelled one is deduped', async () => {
    const root = sb.repo('json');
    write(root, 'disk.iso', 'heavy\n');
    const first = await rewind(['snapshot', '--json', '--label', 'before the edit'], sb.env, root);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const record = JSON.parse(first.stdout) as SnapshotJson;
    expect(Object.keys(record).sort()).toEqual(['commit', 'deduped', 'id', 'skipped', 'tree', 'unchanged']);
    expect(record).toEqual({
      id: 1,
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      tree: expect.stringMatching(/^[0-9a-f]{40}$/),
      deduped: false,
      unchanged: false,
      skipped: [{ path: 'disk.iso', bytes: 6, reason: expect.any(String) }],
    });
    const checkpoints = sb.open(root);
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).toEqual(['README.md']);
    expect(checkpoints.list()[0]).toMatchObject({ id: 1, commit: record.commit, tree: record.tree, label: 'before the edit', trigger: 'manual' });

    // Without a label, an unchanged tree reports the newest checkpoint and adds nothing.
    const again = JSON.parse((await rewind(['snapshot', '--json'], sb.env, root)).stdout) as SnapshotJson;
    expect(again).toMatchObject({ id: 1, commit: record.commit, tree: record.tree, deduped: true, unchanged: true });
    expect(checkpoints.list()).toHaveLength(1);
    const labelled = JSON.parse((await rewind(['snapshot', '--json', '--label', 'still the same'], sb.env, root)).stdout) as SnapshotJson;
    expect(labelled).toMatchObject({ id: 2, commit: record.commit, tree: record.tree, deduped: true, unchanged: false });
  });

  it('prints one line per checkpoint for people, with -C from another folder', async () => {
    const root = sb.repo('human');
    const first = await rewind(['snapshot', '-C', root], sb.env, sb.base);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^checkpoint #1 \([0-9a-f]{12}\): 1 file\(s\) changed\n$/);
    write(root, 'a.txt', 'a\n');
    write(root, 'b.txt', 'b\n');
    expect((await rewind(['snapshot', '-C', root], sb.env, sb.base)).stdout).toMatch(/^checkpoint #2 \([0-9a-f]{12}\): 2 file\(s\) changed\n$/);
    expect((await rewind(['snapshot', '-C', root], sb.env, sb.base)).stdout).toMatch(/^no change since checkpoint #2 \([0-9a-f]{12}\): nothing added \(give --label to add one anyway\)\n$/);
    expect((await rewind(['snapshot', '-C', root], sb.env, sb.base)).stdout).toMatch(/^no change since checkpoint #2 /);
    expect((await rewind(['snapshot', '-C', root, '--label', 'same'], sb.env, sb.base)).stdout).toMatch(/^checkpoint #3 \([0-9a-f]{12}\): no change since the previous checkpoint\n$/);
    expect(sb.open(root).list().map((record) => record.id)).toEqual([1, 2, 3]);
  });

  it('takes -C DIR before the command too, for the app as well', async () => {
    const root = sb.repo('dir-first');
    expect((await rewind(['-C', root, 'snapshot'], sb.env, sb.base)).stdout).toMatch(/^checkpoint #1 /);
    // The app's own checks run (no terminal here), not "unknown command '-C'".
    const app = await rewind(['-C', root, '--', 'true'], sb.env, sb.base);
    expect(app.stderr).toMatch(/start it from a terminal/);
  });

  it('refuses the home folder named by HOME in the environment, in one line, and creates no store', async () => {
    write(sb.home, 'notes.txt', 'my notes\n');
    const result = await rewind(['snapshot', '-C', sb.home], sb.env, sb.base);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(oneLine(result.stderr)).toMatch(/home folder/);
    expect(fs.readdirSync(sb.store)).toEqual([]);
  });

  it('checkpoints the home folder with --allow-home', async () => {
    write(sb.home, 'notes.txt', 'my notes\n');
    const result = await rewind(['snapshot', '--json', '--allow-home', '-C', sb.home], sb.env, sb.base);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const record = JSON.parse(result.stdout) as SnapshotJson;
    const stores = fs.readdirSync(path.join(sb.store, 'history'));
    expect(stores).toHaveLength(1);
    expect(treePaths(path.join(sb.store, 'history', stores[0] ?? '', 'repo.git'), record.tree)).toEqual(['notes.txt']);
  });

  it('refuses the file system root in one line', async () => {
    const result = await rewind(['snapshot', '-C', '/'], sb.env, sb.base);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/file system root/);
    expect(fs.readdirSync(sb.store)).toEqual([]);
  });

  it('a missing -C folder is one line on stderr and exit 1', async () => {
    const missing = path.join(sb.base, 'no-such-folder');
    const result = await rewind(['snapshot', '-C', missing], sb.env, sb.base);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(oneLine(result.stderr)).toContain(missing);
  });

  it('an unknown flag is a usage error (exit 2)', async () => {
    const root = sb.repo('usage');
    const result = await rewind(['snapshot', '--nope'], sb.env, root);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(/--nope/);
  });
});
