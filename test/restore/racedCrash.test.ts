// A restore that kept a file something was still writing (an editor holding the old file
// open) and was then cut off: what was written is still found, when the restore is finished
// or undone, and `rewind redo` brings it back. Also cut off while its redo point moves to the
// checkpoint of those writes: one redo point, never two or none.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { redoRefs, requireBuiltCli, restoreLeftovers, runBuiltCli, snapshotId, withSeams } from '../helpers/restoreKit.js';
import { waitFor } from '../helpers/waitFor.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeAll(() => {
  requireBuiltCli();
});
beforeEach(() => {
  sb = createSandbox('rewind-raced-crash-');
});
afterEach(async () => {
  await sb.cleanup();
});

/**
 * A restore of A over B in a child, paused once it has replaced the files: an editor that
 * held edited.txt open writes into it then (the inode the restore displaced), and the child
 * goes on to be killed at `seam`.
 */
async function racedAndKilled(seam: string) {
  const root = sb.repo(`raced-${seam}`);
  write(root, 'edited.txt', 'edited at A\n');
  write(root, 'other.txt', 'other at A\n');
  const a = await snapshotId(rewind, sb.env, root, 'A');
  write(root, 'edited.txt', 'edited at B\n');
  write(root, 'other.txt', 'other at B\n');
  await snapshotId(rewind, sb.env, root, 'B');
  const editor = fs.openSync(path.join(root, 'edited.txt'), 'r+');
  const pause = sb.folder(`pause-${seam}`);
  const child = runBuiltCli(['restore', String(a), '--yes', '-C', root], withSeams(sb.env, { REWIND_TEST_PAUSE_AT: 'applied', REWIND_TEST_PAUSE_DIR: pause, REWIND_TEST_CRASH_AT: seam }), sb.base);
  await waitFor(() => fs.existsSync(path.join(pause, 'paused')), 30_000, 'the restore to pause after its changes');
  fs.writeSync(editor, 'edited at B, then saved in place by the editor during the restore\n', 0);
  fs.closeSync(editor);
  fs.writeFileSync(path.join(pause, 'go'), '');
  const run = await child;
  expect(run.signal, run.stderr).toBe('SIGKILL');
  expect(fs.readFileSync(path.join(root, 'edited.txt'), 'utf8')).toBe('edited at A\n');
  return { root, a, gitDir: sb.open(root).repo.gitDir };
}

const late = 'edited at B, then saved in place by the editor during the restore\n';

describe('a restore cut off after it kept a file still being written', () => {
  for (const seam of ['applied', 'moving', 'moved']) {
    it(`killed at ${seam}: undone, the files are back with that write, and nothing is left to undo`, { timeout: 60_000 }, async () => {
      const { root, gitDir } = await racedAndKilled(seam);
      const list = await rewind(['list'], sb.env, root);
      expect(list.stderr).toMatch(/was interrupted/);
      const redo = await rewind(['redo', '--yes'], sb.env, root);
      expect(redo.code, redo.stderr).toBe(0);
      expect(fs.readFileSync(path.join(root, 'edited.txt'), 'utf8')).toBe(late);
      expect(fs.readFileSync(path.join(root, 'other.txt'), 'utf8')).toBe('other at B\n');
      expect(redoRefs(gitDir)).toEqual([]);
      expect((await rewind(['redo', '--yes'], sb.env, root)).stderr).toMatch(/nothing to undo/);
      expect(restoreLeftovers(sb.open(root).store.root, root)).toEqual([]);
    });

    it(`killed at ${seam}: finished, it says where that write is, and \`rewind redo\` brings it back`, { timeout: 60_000 }, async () => {
      const { root, a, gitDir } = await racedAndKilled(seam);
      const finish = await runBuiltCli(['restore', String(a), '--yes', '-C', root], sb.env, sb.base);
      expect(finish.code, finish.stderr).toBe(0);
      if (seam === 'applied') expect(finish.stdout).toMatch(/1 file\(s\) were written by something else while the restore ran \(edited\.txt\)/);
      expect(fs.readFileSync(path.join(root, 'edited.txt'), 'utf8')).toBe('edited at A\n');
      expect(redoRefs(gitDir)).toHaveLength(1);
      const redo = await rewind(['redo', '--yes'], sb.env, root);
      expect(redo.code, redo.stderr).toBe(0);
      expect(fs.readFileSync(path.join(root, 'edited.txt'), 'utf8')).toBe(late);
      expect(redoRefs(gitDir)).toEqual([]);
    });
  }
});

describe('a kept file that cannot be read', () => {
  it('is kept where the restore says, and the restore ends done (no journal, exit 0)', async () => {
    const root = sb.repo('unreadable');
    write(root, 'a.txt', 'a at A\n');
    const a = await snapshotId(rewind, sb.env, root, 'A');
    write(root, 'a.txt', 'a at B\n');
    write(root, 'gone.txt', 'deleted by the restore\n');
    await snapshotId(rewind, sb.env, root, 'B');
    // Paused after its changes: its kept copy of gone.txt is made something git cannot hash.
    const pause = sb.folder('pause');
    const child = runBuiltCli(['restore', String(a), '--yes', '-C', root], withSeams(sb.env, { REWIND_TEST_PAUSE_AT: 'applied', REWIND_TEST_PAUSE_DIR: pause }), sb.base);
    await waitFor(() => fs.existsSync(path.join(pause, 'paused')), 30_000, 'the restore to pause after its changes');
    const store = sb.open(root).store.root;
    const staging = fs.readdirSync(store).find((name) => name.startsWith('staging-'));
    const kept = path.join(store, staging ?? '', 'displaced', 'd0');
    expect(fs.existsSync(kept)).toBe(true);
    fs.rmSync(kept);
    fs.mkdirSync(kept);
    fs.writeFileSync(path.join(pause, 'go'), '');
    const run = await child;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/1 file\(s\) it replaced could not be read to check for writes made meanwhile \(gone\.txt\): they are kept as they were in (\S+)/);
    const dir = /kept as they were in (\S+)/.exec(run.stdout)?.[1] ?? '';
    expect(fs.readFileSync(path.join(dir, 'paths'), 'utf8')).toBe('0\tgone.txt\n');
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a at A\n');
    expect(restoreLeftovers(store, root)).toEqual([]);
    expect((await rewind(['list'], sb.env, root)).stderr).not.toMatch(/interrupted/);
  });
});
