// Crash safety: the built CLI restoring a 30-odd-file checkpoint is SIGKILLed right after
// its k-th change to the project (REWIND_TEST_CRASH_AFTER_OPS=k), for every k. Each time
// every file is wholly old or wholly new, the next command reports the interrupted
// restore, and both ways out work: `rewind redo` (all old) and the restore again (all new).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import {
  expectedChange,
  projectState,
  requireBuiltCli,
  restoreJson,
  restoreLeftovers,
  runBuiltCli,
  snapshotId,
  withoutFolders,
  withSeams,
  type State,
} from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeAll(() => {
  requireBuiltCli();
});
beforeEach(() => {
  sb = createSandbox('rewind-restore-crash-');
});
afterEach(async () => {
  await sb.cleanup();
});

function crashingRestore(root: string, id: number, k: number) {
  return runBuiltCli(['restore', String(id), '--yes', '-C', root], withSeams(sb.env, { REWIND_TEST_CRASH_AFTER_OPS: String(k) }), sb.base);
}

/** Paths (files and symlinks) whose entry is neither as in `old` nor as in `next`. */
function halfWritten(now: State, old: State, next: State): string[] {
  const current = withoutFolders(now);
  const a = withoutFolders(old);
  const b = withoutFolders(next);
  const paths = new Set([...Object.keys(current), ...Object.keys(a), ...Object.keys(b)]);
  return [...paths].filter((file) => current[file] !== a[file] && current[file] !== b[file]).sort();
}

/** Files and symlinks exactly as in `want`, and every folder of `want` a folder. */
function expectState(root: string, want: State, label: string): void {
  const now = projectState(root);
  expect(withoutFolders(now), label).toEqual(withoutFolders(want));
  for (const [file, value] of Object.entries(want)) if (value.startsWith('dir ')) expect(now[file], `${label}: ${file}`).toBe(value);
  expect(Object.keys(now).filter((file) => now[file]?.startsWith('dir ') && !(file in want)), `${label}: folders neither has`).toEqual([]);
}

/** NEW (the checkpoint restored) and OLD (the files when restoring): about 36 paths differ. */
function buildNew(root: string): void {
  for (let i = 1; i <= 12; i++) write(root, `m/${String(i).padStart(2, '0')}.txt`, `modified file ${i}, new version\n`);
  for (let i = 1; i <= 6; i++) write(root, `c/deep/a/${i}.txt`, `created file ${i}\n`);
  write(root, 'c/top1.txt', 'created top 1\n');
  write(root, 'c/top2.txt', 'created top 2\n');
  write(root, 'swap', 'swap is a file in NEW\n');
  write(root, 'swap2/inner.txt', 'swap2 is a folder in NEW\n');
  fs.symlinkSync('m/01.txt', path.join(root, 'link'));
  write(root, 'tool.sh', '#!/bin/sh\necho tool\n', 0o755);
  write(root, 'blob.bin', Buffer.from([0, 1, 2, 3, 255, 0, 10]));
  for (let i = 1; i <= 5; i++) write(root, `keep/${i}.txt`, `never touched ${i}\n`);
}

function turnIntoOld(root: string): void {
  for (let i = 1; i <= 12; i++) write(root, `m/${String(i).padStart(2, '0')}.txt`, `modified file ${i}, the current version, a little longer\n`);
  fs.rmSync(path.join(root, 'c'), { recursive: true });
  for (let i = 1; i <= 6; i++) write(root, `d/${i}.txt`, `deleted by the restore ${i}\n`);
  write(root, 'old-only-1.txt', 'deleted by the restore\n');
  write(root, 'old-only-2.txt', 'deleted by the restore\n');
  fs.rmSync(path.join(root, 'swap'));
  write(root, 'swap/inner1.txt', 'swap is a folder in OLD\n');
  write(root, 'swap/inner2.txt', 'swap is a folder in OLD\n');
  fs.rmSync(path.join(root, 'swap2'), { recursive: true });
  write(root, 'swap2', 'swap2 is a file in OLD\n');
  fs.rmSync(path.join(root, 'link'));
  fs.symlinkSync('missing/target', path.join(root, 'link'));
  fs.chmodSync(path.join(root, 'tool.sh'), 0o644);
  write(root, 'blob.bin', Buffer.from([255, 254, 0, 0, 13]));
}

describe('a restore killed after each of its changes', () => {
  it('leaves every file old or new, is reported by the next command, and can be undone (redo) or finished (restore again)', { timeout: 180_000 }, async () => {
    const root = sb.repo('crash');
    buildNew(root);
    const stateNew = projectState(root);
    const target = await snapshotId(rewind, sb.env, root, 'NEW');
    turnIntoOld(root);
    const stateOld = projectState(root);
    const old = await snapshotId(rewind, sb.env, root, 'OLD');
    const change = expectedChange(stateOld, stateNew);
    // Written: 12 modified, 8 created, a file where a folder was and back, a symlink, an exec bit, a binary; 11 deleted.
    expect(change.changed.length + change.deleted.length).toBeGreaterThanOrEqual(30);

    let crashes = 0;
    for (let k = 1; ; k++) {
      expectState(root, stateOld, `k=${k}: before`);
      const run = await crashingRestore(root, target, k);
      if (run.signal === null) {
        // k is past the restore's last change: it ran to the end.
        expect(run.stderr, `k=${k}`).toBe('');
        expect(run.code).toBe(0);
        expectState(root, stateNew, `k=${k}: not killed`);
        break;
      }
      crashes++;
      expect(run.signal, `k=${k}: ${run.stderr}`).toBe('SIGKILL');
      expect(halfWritten(projectState(root), stateOld, stateNew), `k=${k}: files neither old nor new`).toEqual([]);

      const list = await rewind(['list'], sb.env, root);
      expect(list.code, `k=${k}: ${list.stderr}`).toBe(0);
      expect(list.stderr, `k=${k}`).toMatch(new RegExp(`restore of checkpoint #${target} was interrupted`));
      expect(list.stderr).toContain('`rewind redo`');
      expect(list.stderr).toContain(`\`rewind restore ${target}\``);
      if (k === 1) {
        // Restoring anything else first is refused, and changes nothing.
        const before = projectState(root);
        const other = await rewind(['restore', String(old), '--yes'], sb.env, root);
        expect(other.code).toBe(1);
        expect(other.stderr).toMatch(/interrupted/);
        expect(projectState(root)).toEqual(before);
      }

      if (k % 2 === 1) {
        const redo = await rewind(['redo', '--yes'], sb.env, root);
        expect(redo.stderr, `k=${k}: redo`).toBe('');
        expect(redo.code).toBe(0);
        expectState(root, stateOld, `k=${k}: after redo`);
      } else {
        await restoreJson(rewind, sb.env, root, target);
        expectState(root, stateNew, `k=${k}: after the restore again`);
        // The finished restore is undone like any other.
        const back = await rewind(['redo', '--yes'], sb.env, root);
        expect(back.code, `k=${k}: ${back.stderr}`).toBe(0);
      }
      // Recovered: no journal (so no more warnings), no staged copies left.
      expect(restoreLeftovers(sb.open(root).store.root, root), `k=${k}: leftovers`).toEqual([]);
    }
    expect(crashes).toBeGreaterThanOrEqual(30);
  });

  it('a redo killed after each of its changes is reported, and can be finished (`rewind redo`) or undone (`rewind restore <id>`)', { timeout: 120_000 }, async () => {
    const root = sb.repo('crash-redo');
    for (let i = 0; i < 4; i++) write(root, `f${i}.txt`, `A ${i}\n`);
    write(root, 'only-a/x.txt', 'only in A\n');
    write(root, 'shape', 'a file in A\n');
    const stateA = projectState(root);
    const a = await snapshotId(rewind, sb.env, root, 'A');
    for (let i = 0; i < 4; i++) write(root, `f${i}.txt`, `B ${i}, longer\n`);
    fs.rmSync(path.join(root, 'only-a'), { recursive: true });
    write(root, 'only-b/deep/y.txt', 'only in B\n');
    fs.rmSync(path.join(root, 'shape'));
    write(root, 'shape/inner.txt', 'a folder in B\n');
    const stateB = projectState(root);
    const b = await snapshotId(rewind, sb.env, root, 'B');

    // Restored to A, with B on top of the redo stack: what each round starts from.
    await restoreJson(rewind, sb.env, root, a);
    let crashes = 0;
    for (let k = 1; ; k++) {
      expectState(root, stateA, `k=${k}: before`);
      const run = await runBuiltCli(['redo', '--yes', '-C', root], withSeams(sb.env, { REWIND_TEST_CRASH_AFTER_OPS: String(k) }), sb.base);
      if (run.signal === null) {
        expect(run.code, `k=${k}: ${run.stderr}`).toBe(0);
        expectState(root, stateB, `k=${k}: not killed`);
        break;
      }
      crashes++;
      expect(run.signal).toBe('SIGKILL');
      expect(halfWritten(projectState(root), stateA, stateB), `k=${k}: files neither A nor B`).toEqual([]);
      const list = await rewind(['list'], sb.env, root);
      expect(list.code).toBe(0);
      expect(list.stderr, `k=${k}`).toMatch(/rewind redo.*was interrupted/);
      const back = /`rewind restore (\d+)`/.exec(list.stderr);
      expect(back, list.stderr).not.toBeNull();
      if (k % 2 === 1) {
        const finish = await rewind(['redo', '--yes'], sb.env, root);
        expect(finish.code, `k=${k}: ${finish.stderr}`).toBe(0);
        expectState(root, stateB, `k=${k}: redo finished`);
      } else {
        await restoreJson(rewind, sb.env, root, Number(back?.[1]));
        expectState(root, stateA, `k=${k}: redo undone`);
        // The top of the redo stack now holds the half-done files: put B back on top.
        await restoreJson(rewind, sb.env, root, b);
      }
      expect(restoreLeftovers(sb.open(root).store.root, root), `k=${k}: leftovers`).toEqual([]);
      await restoreJson(rewind, sb.env, root, a);
    }
    expect(crashes).toBeGreaterThanOrEqual(10);
  });

  it('a restore --only killed half-way: finishing it keeps to those paths, and first saves what was edited since', async () => {
    const root = sb.repo('crash-only');
    for (const name of ['a1', 'a2', 'a3', 'b', 'c']) write(root, `${name}.txt`, `${name} at the checkpoint\n`);
    const target = await snapshotId(rewind, sb.env, root, 'A');
    for (const name of ['a1', 'a2', 'a3', 'b', 'c']) write(root, `${name}.txt`, `${name} edited\n`);
    await snapshotId(rewind, sb.env, root, 'B');
    const only = ['--only', 'a1.txt', '--only', 'a2.txt', '--only', 'a3.txt'];
    const run = await runBuiltCli(['restore', String(target), '--yes', ...only, '-C', root], withSeams(sb.env, { REWIND_TEST_CRASH_AFTER_OPS: '1' }), sb.base);
    expect(run.signal, run.stderr).toBe('SIGKILL');

    const list = await rewind(['list'], sb.env, root);
    expect(list.stderr).toContain(`\`rewind restore ${target} --only a1.txt --only a2.txt --only a3.txt\``);
    // Edited by hand after the crash, before finishing: the finish must not lose it.
    write(root, 'a3.txt', 'a3 edited by hand after the crash\n');
    write(root, 'c.txt', 'c edited by hand after the crash\n');
    const finish = await rewind(['restore', String(target), '--yes', '--json'], sb.env, root);
    expect(finish.code, finish.stderr).toBe(0);
    for (const name of ['a1', 'a2', 'a3']) expect(fs.readFileSync(path.join(root, `${name}.txt`), 'utf8')).toBe(`${name} at the checkpoint\n`);
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b edited\n');
    expect(fs.readFileSync(path.join(root, 'c.txt'), 'utf8')).toBe('c edited by hand after the crash\n');
    const saved = sb.open(root).list().find((record) => record.label === `before finishing the restore of #${target}`);
    expect(saved, 'a checkpoint of the files before the finish').toBeDefined();
    const restored = await rewind(['restore', String(saved?.id), '--yes', '--only', 'a3.txt'], sb.env, root);
    expect(restored.code, restored.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, 'a3.txt'), 'utf8')).toBe('a3 edited by hand after the crash\n');
  });

  // What a restore creates where the rules it goes back to ignore it (test/restore/redoCreated.test.ts), when it is cut off.
  it.each([
    ['undone right away', false],
    ['finished, then undone', true],
  ])('killed after creating files the older rules ignore, %s: rewind redo removes them too', async (_how, finish) => {
    const root = sb.repo('crash-created');
    for (let i = 1; i <= 3; i++) write(root, `gen/${i}.txt`, `generated ${i}\n`);
    const target = await snapshotId(rewind, sb.env, root, 'gen tracked');
    fs.rmSync(path.join(root, 'gen'), { recursive: true });
    write(root, '.gitignore', 'gen/\n');
    await snapshotId(rewind, sb.env, root, 'gen ignored');
    const before = projectState(root);
    // The changes: .gitignore deleted, gen/ made, then gen/1.txt: killed after that one.
    const run = await runBuiltCli(['restore', String(target), '--yes', '-C', root], withSeams(sb.env, { REWIND_TEST_CRASH_AFTER_OPS: '3' }), sb.base);
    expect(run.signal, run.stderr).toBe('SIGKILL');
    expect(fs.existsSync(path.join(root, 'gen/1.txt'))).toBe(true);
    if (finish) await restoreJson(rewind, sb.env, root, target);
    const redo = await rewind(['redo', '--yes'], sb.env, root);
    expect(redo.code, redo.stderr).toBe(0);
    expect(projectState(root)).toEqual(before);
  });

  it('undone after being killed, it leaves no folder it created behind', async () => {
    const root = sb.repo('created-folders');
    write(root, 'newdir/deep/f.txt', 'created by the restore\n');
    const target = await snapshotId(rewind, sb.env, root, 'with newdir');
    fs.rmSync(path.join(root, 'newdir'), { recursive: true });
    const stateOld = projectState(root);
    // The restore's changes: mkdir newdir, mkdir newdir/deep, rename f.txt. Killed after the first.
    const run = await crashingRestore(root, target, 1);
    expect(run.signal).toBe('SIGKILL');
    const redo = await rewind(['redo', '--yes'], sb.env, root);
    expect(redo.code).toBe(0);
    expect(projectState(root)).toEqual(stateOld);
  });

  it.each([1, 2])('finished after being killed after change %i, it leaves no folder it emptied behind', async (k) => {
    const root = sb.repo('emptied-folders');
    const target = await snapshotId(rewind, sb.env, root, 'without gone/');
    write(root, 'gone/deep/f.txt', 'deleted by the restore\n');
    const stateNew = projectState(root);
    delete stateNew['gone'];
    delete stateNew['gone/deep'];
    delete stateNew['gone/deep/f.txt'];
    // The restore's changes: unlink f.txt, rmdir gone/deep, rmdir gone. Killed after the
    // first (both folders left), or the second (gone/deep already gone, gone empty).
    const run = await crashingRestore(root, target, k);
    expect(run.signal).toBe('SIGKILL');
    await restoreJson(rewind, sb.env, root, target);
    expect(projectState(root)).toEqual(stateNew);
  });
});

describe('a restore killed, then killed again while it is finished or undone', () => {
  it.each([
    ['finished', false],
    ['undone', true],
  ])('the folders the first one emptied or made are still removed once it is %s', async (_how, undo) => {
    const root = sb.repo('killed-twice');
    write(root, 'made/deep/new.txt', 'created by the restore\n');
    for (let i = 1; i <= 3; i++) write(root, `other${i}.txt`, `other ${i} at the target\n`);
    const target = await snapshotId(rewind, sb.env, root, 'target');
    fs.rmSync(path.join(root, 'made'), { recursive: true });
    write(root, 'gone/deep/f.txt', 'deleted by the restore\n');
    for (let i = 1; i <= 3; i++) write(root, `other${i}.txt`, `other ${i} edited\n`);
    const stateOld = projectState(root);
    await snapshotId(rewind, sb.env, root, 'old');
    // Deletions first: unlink gone/deep/f.txt, rmdir gone/deep; killed there (gone/ left empty).
    const first = await crashingRestore(root, target, 2);
    expect(first.signal, first.stderr).toBe('SIGKILL');
    expect(fs.readdirSync(path.join(root, 'gone'))).toEqual([]);
    // The way out, killed after its first change.
    const again = undo
      ? await runBuiltCli(['redo', '--yes', '-C', root], withSeams(sb.env, { REWIND_TEST_CRASH_AFTER_OPS: '1' }), sb.base)
      : await crashingRestore(root, target, 1);
    expect(again.signal, again.stderr).toBe('SIGKILL');
    if (undo) {
      const redo = await rewind(['redo', '--yes'], sb.env, root);
      expect(redo.code, redo.stderr).toBe(0);
      expect(projectState(root)).toEqual(stateOld);
    } else {
      await restoreJson(rewind, sb.env, root, target);
      const now = projectState(root);
      expect(Object.keys(now).filter((file) => file === 'gone' || file.startsWith('gone/'))).toEqual([]);
    }
    expect(restoreLeftovers(sb.open(root).store.root, root)).toEqual([]);
  });
});
