// A restore or an undo whose files already match changes nothing and records nothing: no
// checkpoint taken first (no row for nothing, no redo point), the restored marker as it was;
// an undo still takes its rewind off the undo stack. Real git, a real store, the built CLI.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { previewRedo } from '../../src/checkpoints/restore/redo.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { readRestoredMarker } from '../../src/checkpoints/restore/restoredMarker.js';
import { readRedoStack } from '../../src/checkpoints/store/redoStack.js';
import { rewind } from '../helpers/io.js';
import { requireBuiltCli, runBuiltCli, withSeams } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-changed-nothing-');
});
afterEach(() => sb.cleanup());

/** a.txt `one` at checkpoint 1, `two` at 2, then rewound to 1 (its redo point is 3), then written `two` again by hand. */
async function undoneByHand(name: string) {
  const root = sb.repo(name);
  const engine = sb.open(root);
  write(root, 'a.txt', 'one\n');
  const { record: first } = await engine.snapshot({ label: 'a is one' });
  write(root, 'a.txt', 'two\n');
  await engine.snapshot({ label: 'a is two' });
  const restored = await restoreCheckpoint(engine, first.id);
  write(root, 'a.txt', 'two\n');
  return { root, engine, first, redoPoint: restored.redo };
}

describe('a restore or undo that changes no file', () => {
  it('a restore of a checkpoint the files already match takes no checkpoint and pushes no redo point', async () => {
    const root = sb.repo('restore');
    const engine = sb.open(root);
    write(root, 'a.txt', 'one\n');
    const { record: first } = await engine.snapshot({ label: 'a is one' });
    write(root, 'a.txt', 'edited since\n');
    // An edit made since the newest checkpoint, then put back by hand: the files match #1 again.
    write(root, 'a.txt', 'one\n');
    const ids = engine.list().map((record) => record.id);
    const marker = readRestoredMarker(engine.store);
    const result = await restoreCheckpoint(engine, first.id);
    expect(result).toMatchObject({ changed: [], deleted: [], redo: null, changedNothing: true });
    expect(engine.list().map((record) => record.id)).toEqual(ids);
    expect(await readRedoStack(engine.repo)).toEqual([]);
    expect(readRestoredMarker(engine.store)).toEqual(marker);
    expect(fs.readFileSync(`${root}/a.txt`, 'utf8')).toBe('one\n');
    // The next checkpoint is the next id: none was taken and dropped in between for the user to see.
    expect((await engine.snapshot({ label: 'next' })).record.id).toBe(first.id + 1);
  });

  it('an undo whose files already are as before the rewind takes no checkpoint, and takes the rewind off the undo stack', async () => {
    const { root, engine, redoPoint } = await undoneByHand('undo');
    expect((await previewRedo(engine)).preview).toMatchObject({ writes: [], deletes: [] });
    const ids = engine.list().map((record) => record.id);
    const done = await engine.redo();
    expect(done).toMatchObject({ undid: redoPoint, before: null, changed: [], deleted: [], changedSince: [] });
    expect(engine.list().map((record) => record.id)).toEqual(ids);
    expect(engine.list().some((record) => record.label.startsWith('before redo'))).toBe(false);
    expect(await readRedoStack(engine.repo)).toEqual([]);
    await expect(previewRedo(engine)).rejects.toThrow(/nothing to undo/);
    expect(fs.readFileSync(`${root}/a.txt`, 'utf8')).toBe('two\n');
    // The undone rewind's marker is gone: the files are no longer what it wrote, so the next
    // edit back to what it wrote is a change since the newest checkpoint, and is checkpointed.
    expect(readRestoredMarker(engine.store)).toBeUndefined();
    write(root, 'a.txt', 'one\n');
    const next = await engine.snapshot({ label: 'one again', onlyIfChanged: true });
    expect(next.unchanged ?? false).toBe(false);
    expect(next.record).toMatchObject({ label: 'one again', changedSincePrevious: 1 });
  });

  it('`rewind redo` says so in its plan and in what it did, and names no checkpoint to go back to', async () => {
    requireBuiltCli();
    const { root } = await undoneByHand('cli');
    const plan = await rewind(['redo', '--dry-run'], sb.env, root);
    expect(plan.stdout).toMatch(/^Going back to #3 changes nothing: the files already match it$/m);
    expect(plan.stdout).toMatch(/^ {2}it only takes that restore off the undo stack: no checkpoint is taken for nothing$/m);
    expect(plan.stdout).not.toMatch(/checkpointed first/);
    const done = await rewind(['redo', '--yes'], sb.env, root);
    expect(done.code).toBe(0);
    expect(done.stdout).toBe('undid the last restore: the files already were as checkpoint #3 holds them (nothing changed, no checkpoint taken)\n');
    const json = await rewind(['redo', '--yes', '--json'], sb.env, root);
    expect(json.code).not.toBe(0);
    expect(json.stderr).toMatch(/nothing to undo/);
  });

  it('an undo of a restore cut off before its first change still checkpoints the files first, and its plan says so', async () => {
    requireBuiltCli();
    const root = sb.repo('cut-off');
    write(root, 'a.txt', 'one\n');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    write(root, 'a.txt', 'two\n');
    // Killed with its journal written and its redo point pushed, before any file changed.
    const cut = await runBuiltCli(['restore', '1', '--yes'], withSeams(sb.env, { REWIND_TEST_CRASH_AT: 'redo-ref' }), root);
    expect(cut.signal).toBe('SIGKILL');
    expect(fs.readFileSync(`${root}/a.txt`, 'utf8')).toBe('two\n');
    const plan = await rewind(['redo', '--dry-run'], sb.env, root);
    expect(plan.stdout).toMatch(/changes nothing: the files already match it$/m);
    expect(plan.stdout).toMatch(/^ {2}your files as they are now are checkpointed first/m);
    const done = await rewind(['redo', '--yes'], sb.env, root);
    expect(done.stdout).toMatch(/^the files as they were before this are checkpoint #\d+/m);
  });

  it('a checkpoint taken back takes the restored marker that names it along (its id goes to the next checkpoint)', async () => {
    const { engine, redoPoint } = await undoneByHand('marker');
    expect(readRestoredMarker(engine.store)?.after).toBe(redoPoint);
    await engine.locked('take it back', () => engine.dropNewestLocked(redoPoint ?? Number.NaN));
    expect(engine.list().at(-1)?.id).toBe((redoPoint ?? 0) - 1);
    expect(readRestoredMarker(engine.store)).toBeUndefined();
  });

  it('`rewind restore` of a checkpoint the files already match says so, and offers no undo', async () => {
    requireBuiltCli();
    const { root } = await undoneByHand('cli-restore');
    const done = await rewind(['restore', '2', '--yes'], sb.env, root);
    expect(done.code).toBe(0);
    expect(done.stdout).toBe('restored checkpoint #2: the files already matched it (nothing changed, no checkpoint taken)\n');
    const json = await rewind(['restore', '2', '--yes', '--json'], sb.env, root);
    expect(JSON.parse(json.stdout)).toMatchObject({ changed: [], deleted: [], redo: null });
  });
});
