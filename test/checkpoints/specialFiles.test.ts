// Issue 11 item 9: a FIFO or a socket where a checkpointed file was, or a file git may not
// read, never makes snapshots and restores fail: it is left out, reported as skipped, and
// left alone by restores; once it is a readable file again it is checkpointed again.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { asNobody } from '../helpers/asNobody.js';
import { fileInTree, treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-special-');
});
afterEach(() => sb.cleanup());

describe('files git cannot add', () => {
  it('a FIFO where a checkpointed file was: left out and reported, the restore leaves it alone', async () => {
    const root = sb.repo('fifo');
    write(root, 'pipe', 'was a file\n');
    write(root, 'other.txt', 'one\n');
    const engine = sb.open(root);
    const { record: first } = await engine.snapshot({ label: 'files' });
    fs.rmSync(path.join(root, 'pipe'));
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    write(root, 'other.txt', 'two\n');

    const { record } = await engine.snapshot({ label: 'with a fifo' });
    expect(treePaths(engine.repo.gitDir, record.tree)).toEqual(['README.md', 'other.txt']);
    expect(record.skipped).toContainEqual(expect.objectContaining({ path: 'pipe', reason: expect.stringMatching(/FIFO/) }));

    const restored = await restoreCheckpoint(engine, first.id);
    expect(restored.changed).toEqual(['other.txt']);
    expect(restored.leftAlone.map((item) => item.path)).toEqual(['pipe']);
    expect(fs.lstatSync(path.join(root, 'pipe')).isFIFO()).toBe(true);
    expect(fs.readFileSync(path.join(root, 'other.txt'), 'utf8')).toBe('one\n');

    // A file again: checkpointed again.
    fs.rmSync(path.join(root, 'pipe'));
    write(root, 'pipe', 'a file again\n');
    const { record: back } = await engine.snapshot({ label: 'file again' });
    expect(fileInTree(engine.repo.gitDir, back.tree, 'pipe')?.bytes.toString()).toBe('a file again\n');
    expect(back.skipped).toEqual([]);
  });

  it('a socket in place of a tracked file of the project, at the first snapshot: left out and reported', async () => {
    const root = sb.repo('socket');
    write(root, 'run/app.sock', 'placeholder\n');
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'socket placeholder');
    fs.rmSync(path.join(root, 'run/app.sock'));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, 'run/app.sock'), resolve));
    try {
      const { record } = await sb.open(root).snapshot({ label: 'first' });
      expect(treePaths(sb.open(root).repo.gitDir, record.tree)).toEqual(['README.md']);
      expect(record.skipped.map((file) => file.path)).toEqual(['run/app.sock']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a file the user may not read (not root): left out and reported, the rest checkpointed', async () => {
    const root = sb.repo('unreadable');
    write(root, 'secret.txt', 'top secret\n');
    write(root, 'notes.txt', 'notes\n');
    fs.chmodSync(path.join(root, 'secret.txt'), 0o000);
    // Run as a user that cannot read it (root reads everything).
    fs.chmodSync(sb.base, 0o755);
    execFileSync('chown', ['-R', '65534:65534', sb.base]);
    const first = asNobody(root, sb.env, ['snapshot', '--json']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const json = JSON.parse(first.stdout) as { tree: string; skipped: { path: string; reason: string }[] };
    expect(json.skipped).toEqual([expect.objectContaining({ path: 'secret.txt', reason: expect.stringMatching(/cannot be read/) })]);
    expect(treePaths(sb.open(root).repo.gitDir, json.tree)).toEqual(['README.md', 'notes.txt']);
    write(root, 'notes.txt', 'more notes\n');
    execFileSync('chown', ['65534:65534', path.join(root, 'notes.txt')]);
    const second = asNobody(root, sb.env, ['snapshot', '--json']);
    expect(second).toMatchObject({ code: 0, stderr: '' });
  });
});
