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

/** A project whose a.txt is `one` at checkpoint 1 (taken by the built CLI) and `two` on disk. */
async function cliProject(name: string): Promise<string> {
  requireBuiltCli();
  const root = sb.repo(name);
  write(root, 'a.txt', 'one\n');
  expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
  write(root, 'a.txt', 'two\n');
  return root;
}

/** With a rewind cut off and a.txt `two` (as before it): the undo changes no file, yet its plan and its result say the files are checkpointed first. */
async function expectUndoCheckpointsFirst(root: string): Promise<void> {
  expect(fs.readFileSync(`${root}/a.txt`, 'utf8')).toBe('two\n');
  const plan = await rewind(['redo', '--dry-run'], sb.env, root);
  expect(plan.stdout).toMatch(/changes nothing: the files already match it$/m);
  expect(plan.stdout).toMatch(/^ {2}your files as they are now are checkpointed first/m);
  const done = await rewind(['redo', '--yes'], sb.env, root);
  expect(done.code).toBe(0);
  expect(done.stdout).toMatch(/^the files as they were before this are checkpoint #\d+/m);
}

describe('a restore or undo that changes no file', () => {
  it('a restore of a checkpoint the files already match takes no checkpoint, pushes no redo point and leaves the marker as it was', async () => {
    const root = sb.repo('restore');
    const engine = sb.open(root);
    write(root, 'a.txt', 'one\n');
    const { record: first } = await engine.snapshot({ label: 'a is one' });
    write(root, 'a.txt', 'two\n');
    const { record: second } = await engine.snapshot({ label: 'a is two' });
    write(root, 'a.txt', 'three\n');
    await engine.snapshot({ label: 'a is three' });
    // A rewind to #1 (its marker says the files are #1's), then a.txt set by hand to #2's.
    await restoreCheckpoint(engine, first.id);
    write(root, 'a.txt', 'two\n');
    const ids = engine.list().map((record) => record.id);
    const stack = await readRedoStack(engine.repo);
    const marker = readRestoredMarker(engine.store);
    expect(marker).toMatchObject({ tree: first.tree, after: ids.at(-1) });
    const result = await restoreCheckpoint(engine, second.id);
    expect(result).toMatchObject({ changed: [], deleted: [], redo: null, changedNothing: true });
    expect(engine.list().map((record) => record.id)).toEqual(ids);
    expect(await readRedoStack(engine.repo)).toEqual(stack);
    expect(readRestoredMarker(engine.store)).toEqual(marker);
    expect(fs.readFileSync(`${root}/a.txt`, 'utf8')).toBe('two\n');
    // The hand edit is still a change since the newest checkpoint, and the next checkpoint, the next id, holds it.
    const next = await engine.snapshot({ label: 'next', onlyIfChanged: true });
    expect(next.unchanged ?? false).toBe(false);
    expect(next.record).toMatchObject({ id: (ids.at(-1) ?? 0) + 1, tree: second.tree });
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

  it('`rewind redo --json` of such an undo says it took no checkpoint: "redo" is null', async () => {
    requireBuiltCli();
    const { root } = await undoneByHand('cli-json');
    const done = await rewind(['redo', '--yes', '--json'], sb.env, root);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ checkpoint: 3, changed: [], deleted: [], redo: null, changedSince: [] });
  });

  it('an undo of a restore cut off before its first change still checkpoints the files first, and its plan says so', async () => {
    const root = await cliProject('cut-off');
    // Killed with its journal written and its redo point pushed, before any file changed.
    const cut = await runBuiltCli(['restore', '1', '--yes'], withSeams(sb.env, { REWIND_TEST_CRASH_AT: 'redo-ref' }), root);
    expect(cut.signal).toBe('SIGKILL');
    await expectUndoCheckpointsFirst(root);
  });

  it('a checkpoint taken back takes the restored marker that names it along (its id goes to the next checkpoint)', async () => {
    const { engine, redoPoint } = await undoneByHand('marker');
    expect(readRestoredMarker(engine.store)?.after).toBe(redoPoint);
    await engine.locked('take it back', () => engine.dropNewestLocked(redoPoint ?? Number.NaN));
    expect(engine.list().at(-1)?.id).toBe((redoPoint ?? 0) - 1);
    expect(readRestoredMarker(engine.store)).toBeUndefined();
  });

  it('an undo cut off after its last change is finished, not taken for one that changes nothing: its plan and result say the files are checkpointed first', async () => {
    const root = await cliProject('undo-cut-off');
    expect((await rewind(['restore', '1', '--yes'], sb.env, root)).code).toBe(0);
    // The undo killed once every file is back as before the rewind, its journal still there.
    const cut = await runBuiltCli(['redo', '--yes'], withSeams(sb.env, { REWIND_TEST_CRASH_AT: 'applied' }), root);
    expect(cut.signal).toBe('SIGKILL');
    await expectUndoCheckpointsFirst(root);
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
