// A restore SIGKILLed before it touched any file (while staging its copies, or at the seams
// between its journal and its redo point, REWIND_TEST_CRASH_AT) changed nothing: it leaves no
// redo point for `rewind redo` to "undo". Once its journal is written, the next command says
// it was cut off, and both ways out work.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { projectState, redoRefs, requireBuiltCli, restoreJson, restoreLeftovers, runBuiltCli, snapshotId, withSeams } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeAll(() => {
  requireBuiltCli();
});
beforeEach(() => {
  sb = createSandbox('rewind-killed-preparing-');
});
afterEach(async () => {
  await sb.cleanup();
});

const files = 24;

async function twoCheckpoints(name: string) {
  const root = sb.repo(name);
  for (let i = 0; i < files; i++) write(root, `f${i}.txt`, `A ${i}\n`);
  const a = await snapshotId(rewind, sb.env, root, 'A');
  for (let i = 0; i < files; i++) write(root, `f${i}.txt`, `B ${i}, longer\n`);
  write(root, 'new/only-b.txt', 'only in B\n');
  await snapshotId(rewind, sb.env, root, 'B');
  return { root, a, gitDir: sb.open(root).repo.gitDir };
}

function killedAt(root: string, id: number, seam: string) {
  return runBuiltCli(['restore', String(id), '--yes', '-C', root], withSeams(sb.env, { REWIND_TEST_CRASH_AT: seam }), sb.base);
}

describe('a restore killed before it touches a file', () => {
  it('while staging, at any copy: the files as they were, no redo point, no warning; `rewind redo` has nothing to undo', { timeout: 120_000 }, async () => {
    const { root, a, gitDir } = await twoCheckpoints('staging');
    const before = projectState(root);
    for (const k of [1, 2, Math.floor(files / 2), files]) {
      const run = await killedAt(root, a, `staged:${k}`);
      expect(run.signal, `staged:${k}: ${run.stderr}`).toBe('SIGKILL');
      expect(projectState(root), `staged:${k}`).toEqual(before);
      expect(redoRefs(gitDir), `staged:${k}`).toEqual([]);
      const list = await rewind(['list'], sb.env, root);
      expect(list.code).toBe(0);
      expect(list.stderr, `staged:${k}`).not.toMatch(/interrupted/);
      const redo = await rewind(['redo', '--yes'], sb.env, root);
      expect(redo.code, `staged:${k}`).toBe(1);
      expect(redo.stderr).toMatch(/nothing to undo/);
      expect(projectState(root)).toEqual(before);
    }
    // The next restore runs whole and cleans what the killed ones staged.
    const done = await restoreJson(rewind, sb.env, root, a);
    expect(done.changed.length).toBe(files);
    expect(redoRefs(gitDir)).toHaveLength(1);
    expect(restoreLeftovers(sb.open(root).store.root, root)).toEqual([]);
    expect((await rewind(['redo', '--yes'], sb.env, root)).code).toBe(0);
    expect(projectState(root)).toEqual(before);
  });

  for (const seam of ['journal', 'redo-ref']) {
    it(`just after its ${seam === 'journal' ? 'journal' : 'redo point'}: reported as cut off; \`redo\` leaves the files as they were, and finishing it can be undone`, { timeout: 60_000 }, async () => {
      const { root, a, gitDir } = await twoCheckpoints(seam);
      const before = projectState(root);
      const run = await killedAt(root, a, seam);
      expect(run.signal, run.stderr).toBe('SIGKILL');
      expect(projectState(root)).toEqual(before);
      const list = await rewind(['list'], sb.env, root);
      expect(list.stderr).toMatch(new RegExp(`restore of checkpoint #${a} was interrupted`));

      // Finished: a redo point is there (pushed now if the kill came before it), so it is undone like any other.
      await restoreJson(rewind, sb.env, root, a);
      expect(redoRefs(gitDir)).toHaveLength(1);
      expect((await rewind(['redo', '--yes'], sb.env, root)).code).toBe(0);
      expect(projectState(root)).toEqual(before);
      expect(redoRefs(gitDir)).toEqual([]);

      // Killed again, then undone: the files as they were, and nothing left to undo.
      expect((await killedAt(root, a, seam)).signal).toBe('SIGKILL');
      const undo = await rewind(['redo', '--yes'], sb.env, root);
      expect(undo.code, undo.stderr).toBe(0);
      expect(projectState(root)).toEqual(before);
      expect(redoRefs(gitDir)).toEqual([]);
      expect(restoreLeftovers(sb.open(root).store.root, root)).toEqual([]);
    });
  }
});
