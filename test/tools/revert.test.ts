// Issue 28 item 1: take back one step and keep the later ones, on real repositories. Each
// case builds steps as an agent would (a checkpoint before each), reverts one, and checks
// the files byte for byte, what was planned, that nothing is written until a conflict is
// decided, that `redo` undoes it exactly, and that the project's .git is untouched.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RevertConflictsError } from '../../src/checkpoints/index.js';
import type { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { injectInProcess } from '../helpers/inject.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-revert-');
});
afterEach(() => sb.cleanup());

const lines = (...items: string[]) => `${items.join('\n')}\n`;
const ten = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);

/** The project's files (not .git), path -> content or `-> target` for a symlink, with modes. */
function files(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (rel === '.git') continue;
      const full = path.join(root, rel);
      const stat = fs.lstatSync(full);
      if (stat.isDirectory()) walk(rel);
      else if (stat.isSymbolicLink()) found[rel] = `-> ${fs.readlinkSync(full)}`;
      else found[rel] = `${stat.mode & 0o111 ? 'x ' : ''}${fs.readFileSync(full, 'latin1')}`;
    }
  };
  walk('');
  return found;
}

/** Runs `steps`, each after a checkpoint, then one more checkpoint; returns the ids before each step. */
async function stepsOf(engine: CheckpointEngine, steps: ReadonlyArray<() => void>): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, step] of steps.entries()) {
    ids.push((await engine.snapshot({ trigger: 'PreToolUse:Edit', label: `step ${index + 1}` })).record.id);
    step();
  }
  await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'after' });
  return ids;
}

describe('rewind revert (engine)', () => {
  it('takes back a middle step whose files the later steps left alone, exactly, and redo undoes it', async () => {
    const root = sb.repo('middle');
    write(root, 'a.txt', 'a0\n');
    write(root, 'b.txt', 'b0\n');
    const engine = sb.open(root);
    const gitBefore = fingerprint(path.join(root, '.git'));
    const ids = await stepsOf(engine, [() => write(root, 'b.txt', 'b1\n'), () => write(root, 'a.txt', 'a1\n'), () => write(root, 'c.txt', 'c\n')]);
    const now = files(root);
    const preview = await engine.previewRevert(ids[1] ?? 0);
    expect(preview.changes).toEqual([{ path: 'a.txt', how: 'restored' }]);
    expect(preview.conflicts).toEqual([]);
    expect(files(root)).toEqual(now);
    const result = await engine.revert(ids[1] ?? 0);
    expect(files(root)).toEqual({ ...now, 'a.txt': 'a0\n' });
    expect(result.restore.changed).toEqual(['a.txt']);
    expect(engine.get(result.checkpoint).trigger).toBe('revert');
    await engine.redo();
    expect(files(root)).toEqual(now);
    expect(fingerprint(path.join(root, '.git'))).toEqual(gitBefore);
  });

  it('merges a file the later steps changed in other lines', async () => {
    const root = sb.repo('merged');
    write(root, 'f.txt', lines(...ten));
    const engine = sb.open(root);
    const edited = [...ten];
    const ids = await stepsOf(engine, [
      () => {
        edited[1] = 'two, by the step';
        write(root, 'f.txt', lines(...edited));
      },
      () => {
        edited[8] = 'nine, later';
        write(root, 'f.txt', lines(...edited));
      },
    ]);
    const result = await engine.revert(ids[0] ?? 0);
    expect(result.plan.changes).toEqual([{ path: 'f.txt', how: 'merged' }]);
    const expected = [...ten];
    expected[8] = 'nine, later';
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe(lines(...expected));
  });

  it('shows a conflict on the same lines and writes nothing until it is chosen; each choice is exact', async () => {
    const root = sb.repo('conflict');
    write(root, 'f.txt', lines(...ten));
    write(root, 'g.txt', 'g0\n');
    const engine = sb.open(root);
    const ids = await stepsOf(engine, [
      () => {
        write(root, 'f.txt', lines('ONE', ...ten.slice(1)));
        write(root, 'g.txt', 'g1\n');
      },
      () => write(root, 'f.txt', lines('one, later', ...ten.slice(1))),
    ]);
    const now = files(root);
    const count = engine.list().length;
    const error = await engine.revert(ids[0] ?? 0).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RevertConflictsError);
    const plan = (error as RevertConflictsError).plan;
    expect(plan.changes).toEqual([{ path: 'g.txt', how: 'restored' }]);
    expect(plan.conflicts).toEqual([{ path: 'f.txt', kind: 'content', withMarkers: 'markers', hunks: ['<<<<<<< now\none, later\n=======\nline 1\n>>>>>>> before-#1'] }]);
    expect(files(root)).toEqual(now);
    expect(engine.list()).toHaveLength(count);

    await engine.revert(ids[0] ?? 0, { conflicts: 'keep' });
    expect(files(root)).toEqual({ ...now, 'g.txt': 'g0\n' });
    await engine.redo();
    expect(files(root)).toEqual(now);

    await engine.revert(ids[0] ?? 0, { conflicts: 'markers' });
    expect(files(root)).toEqual({ ...now, 'g.txt': 'g0\n', 'f.txt': lines('<<<<<<< now', 'one, later', '=======', 'line 1', '>>>>>>> before-#1', ...ten.slice(1)) });
    await engine.redo();
    expect(files(root)).toEqual(now);
  });

  it('gives each kind of change its outcome: created, deleted, symlink, mode, binary, rename (its two paths: no later work lost)', async () => {
    const root = sb.repo('kinds');
    write(root, 'gone.txt', 'kept by the revert\n');
    write(root, 'run.sh', '#!/bin/sh\n');
    write(root, 'old-name.txt', lines(...ten));
    write(root, 'moved-clean.txt', lines('moved', 'and left'));
    write(root, 'pic.bin', Buffer.from([0, 1, 2, 3, 255]));
    fs.symlinkSync('a-target', path.join(root, 'link'));
    const engine = sb.open(root);
    const renamed = [...ten];
    renamed[9] = 'ten, edited after the rename';
    const ids = await stepsOf(engine, [
      () => {
        write(root, 'new.txt', 'made by the step\n');
        write(root, 'made-then-edited.txt', 'made by the step\n');
        fs.rmSync(path.join(root, 'gone.txt'));
        fs.chmodSync(path.join(root, 'run.sh'), 0o755);
        fs.rmSync(path.join(root, 'link'));
        fs.symlinkSync('b-target', path.join(root, 'link'));
        fs.renameSync(path.join(root, 'old-name.txt'), path.join(root, 'new-name.txt'));
        fs.renameSync(path.join(root, 'moved-clean.txt'), path.join(root, 'moved-clean-2.txt'));
        write(root, 'pic.bin', Buffer.from([0, 1, 2, 3, 254]));
      },
      () => {
        write(root, 'made-then-edited.txt', 'edited later\n');
        write(root, 'pic.bin', Buffer.from([0, 1, 2, 3, 253]));
        write(root, 'new-name.txt', lines(...renamed));
      },
    ]);
    const now = files(root);
    const plan = await engine.previewRevert(ids[0] ?? 0);
    const byPath = Object.fromEntries(plan.changes.map((change) => [change.path, change.how]));
    expect(byPath).toEqual({
      'new.txt': 'deleted',
      'gone.txt': 'created',
      'run.sh': 'restored',
      link: 'restored',
      'old-name.txt': 'created',
      'moved-clean.txt': 'created',
      'moved-clean-2.txt': 'deleted',
    });
    expect(plan.conflicts.map(({ path: file, kind, withMarkers }) => ({ file, kind, withMarkers }))).toEqual([
      { file: 'made-then-edited.txt', kind: 'created-then-changed', withMarkers: 'as-now' },
      { file: 'new-name.txt', kind: 'created-then-changed', withMarkers: 'as-now' },
      { file: 'pic.bin', kind: 'binary', withMarkers: 'as-now' },
    ]);
    await engine.revert(ids[0] ?? 0, { conflicts: 'markers' });
    const { 'new.txt': _made, 'moved-clean-2.txt': _moved, ...rest } = now;
    // The renamed file's old name is back as it was; the new name, edited since, stays.
    expect(files(root)).toEqual({ ...rest, 'gone.txt': 'kept by the revert\n', 'run.sh': '#!/bin/sh\n', link: '-> a-target', 'old-name.txt': lines(...ten), 'moved-clean.txt': lines('moved', 'and left') });
    await engine.redo();
    expect(files(root)).toEqual(now);
  });

  it('a folder the step renamed comes back, and a file made in the new folder since stays', async () => {
    const root = sb.repo('folder-rename');
    write(root, 'lib/a.ts', 'export const a = 1;\n');
    const engine = sb.open(root);
    const ids = await stepsOf(engine, [() => fs.renameSync(path.join(root, 'lib'), path.join(root, 'src')), () => write(root, 'src/new.ts', 'made later\n')]);
    const result = await engine.revert(ids[0] ?? 0, { conflicts: 'keep' });
    expect(result.plan.conflicts).toEqual([]);
    expect(files(root)).toEqual({ 'README.md': '# project\n', 'lib/a.ts': 'export const a = 1;\n', 'src/new.ts': 'made later\n' });
  });

  it('--only a renamed file takes back that path alone: nothing of the later edit is lost', async () => {
    const root = sb.repo('only-rename');
    write(root, 'a.txt', lines(...ten));
    const engine = sb.open(root);
    const edited = [...ten];
    edited[0] = 'edited after the rename';
    const ids = await stepsOf(engine, [() => fs.renameSync(path.join(root, 'a.txt'), path.join(root, 'b.txt')), () => write(root, 'b.txt', lines(...edited))]);
    const now = files(root);
    await expect(engine.revert(ids[0] ?? 0, { only: ['b.txt'] })).rejects.toThrow(/conflicts in 1 file/);
    expect(files(root)).toEqual(now);
    const result = await engine.revert(ids[0] ?? 0, { only: ['a.txt'] });
    expect(result.plan.changes).toEqual([{ path: 'a.txt', how: 'created' }]);
    expect(files(root)).toEqual({ ...now, 'a.txt': lines(...ten) });
  });

  it('a turn that ends in its end mark is reverted to that mark: an edit made after it stays', async () => {
    const root = sb.repo('turn-end');
    write(root, 'a.txt', 'a0\n');
    const engine = sb.open(root);
    const prompt = (await engine.snapshot({ trigger: 'UserPromptSubmit', label: 'edit a' })).record.id;
    await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit a.txt' });
    write(root, 'a.txt', 'a1\n');
    const end = (await engine.snapshot({ trigger: 'end', label: 'turn end' })).record.id;
    write(root, 'mine.txt', 'my edit after the turn\n');
    const result = await engine.revert(prompt, { through: end });
    expect(result.plan).toMatchObject({ to: end, changes: [{ path: 'a.txt', how: 'restored' }] });
    expect(files(root)).toEqual({ 'README.md': '# project\n', 'a.txt': 'a0\n', 'mine.txt': 'my edit after the turn\n' });
  });

  it('a file where a folder was (or the other way round) never takes work made since with it: a conflict, left as it is', async () => {
    // A: the step removed folder a/; the user then made a file a.
    const rootA = sb.repo('folder-then-file');
    write(rootA, 'a/x', 'x\n');
    const a = sb.open(rootA);
    const idsA = await stepsOf(a, [() => fs.rmSync(path.join(rootA, 'a'), { recursive: true })]);
    write(rootA, 'a', 'user notes\n');
    const planA = await a.previewRevert(idsA[0] ?? 0);
    expect(planA).toMatchObject({ changes: [], conflicts: [{ path: 'a/x', kind: 'other', withMarkers: 'as-now' }] });
    await expect(a.revert(idsA[0] ?? 0, { conflicts: 'markers' })).rejects.toThrow(/changes no files now/);
    expect(files(rootA)).toMatchObject({ a: 'user notes\n' });

    // B: the step turned file b into folder b/x; the user then added b/y.
    const rootB = sb.repo('file-then-folder');
    write(rootB, 'b', 'file\n');
    write(rootB, 'keep.txt', 'k0\n');
    const b = sb.open(rootB);
    const idsB = await stepsOf(b, [
      () => {
        fs.rmSync(path.join(rootB, 'b'));
        write(rootB, 'b/x', 'x\n');
        write(rootB, 'keep.txt', 'k1\n');
      },
    ]);
    write(rootB, 'b/y', 'made since\n');
    const doneB = await b.revert(idsB[0] ?? 0, { conflicts: 'markers' });
    expect(doneB.plan.conflicts.map((conflict) => [conflict.path, conflict.kind])).toEqual([['b', 'other']]);
    expect(files(rootB)).toEqual({ 'README.md': '# project\n', 'keep.txt': 'k0\n', 'b/y': 'made since\n' });

    // C: the step turned folder c/ into file c; the user then edited c.
    const rootC = sb.repo('folder-then-edited-file');
    write(rootC, 'c/x', 'x\n');
    write(rootC, 'keep.txt', 'k0\n');
    const c = sb.open(rootC);
    const idsC = await stepsOf(c, [
      () => {
        fs.rmSync(path.join(rootC, 'c'), { recursive: true });
        write(rootC, 'c', 'made by the step\n');
        write(rootC, 'keep.txt', 'k1\n');
      },
    ]);
    write(rootC, 'c', 'edited since\n');
    for (const conflicts of ['keep', 'markers'] as const) {
      await c.revert(idsC[0] ?? 0, { conflicts });
      expect(files(rootC)).toEqual({ 'README.md': '# project\n', 'keep.txt': 'k0\n', c: 'edited since\n' });
      await c.redo();
    }
  });

  it("a step's agent writes a watch folded in are the step's: its revert takes them back too", async () => {
    const root = sb.repo('folded-watch');
    const engine = sb.open(root);
    await engine.snapshot({ trigger: 'UserPromptSubmit', label: 'make two' });
    const tool = (await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'Edit one' })).record.id;
    write(root, 'one', '1\n');
    const watch = (await engine.snapshot({ trigger: 'watch', label: 'files changed' })).record.id;
    write(root, 'two', '2\n');
    await engine.snapshot({ trigger: 'end', label: 'turn end' });
    write(root, 'user.txt', 'mine\n');
    await engine.snapshot({ trigger: 'manual', label: 'by hand' });
    const result = await engine.revert(tool, { through: watch });
    expect(result.plan.changes.map((change) => change.path).sort()).toEqual(['one', 'two']);
    expect(files(root)).toEqual({ 'README.md': '# project\n', 'user.txt': 'mine\n' });
  });

  it('a file the step grew past the size cap (left out of its end) is not the step\'s to take back: it stays', async () => {
    const root = sb.repo('left-out');
    write(root, 'a.txt', 'a0\n');
    write(root, 'big.bin', 'small at first\n');
    const engine = sb.open(root, { checkpointMaxFileMb: 0.001 });
    const ids = await stepsOf(engine, [
      () => {
        write(root, 'a.txt', 'a1\n');
        write(root, 'big.bin', 'x'.repeat(4096));
      },
    ]);
    const result = await engine.revert(ids[0] ?? 0);
    expect(result.plan.changes).toEqual([{ path: 'a.txt', how: 'restored' }]);
    expect(files(root)).toEqual({ 'README.md': '# project\n', 'a.txt': 'a0\n', 'big.bin': 'x'.repeat(4096) });
  });

  it('of a checkpoint that can no longer be restored is refused, and changes nothing', async () => {
    const root = sb.repo('unrestorable');
    write(root, 'a.txt', 'a0\n');
    const engine = sb.open(root);
    const ids = await stepsOf(engine, [() => write(root, 'a.txt', 'a1\n')]);
    engine.log.rewrite(engine.list().map((record) => (record.id === ids[0] ? { ...record, unrestorable: true } : record)));
    const now = files(root);
    const count = engine.list().length;
    await expect(engine.revert(ids[0] ?? 0)).rejects.toThrow(/cannot be reverted: its files are no longer restorable/);
    expect(files(root)).toEqual(now);
    expect(engine.list()).toHaveLength(count);
  });

  it('a failure after the journal keeps the redo point and the result, so the revert can be finished or undone', async () => {
    const root = sb.repo('failure');
    write(root, 'a.txt', 'a0\n');
    const engine = sb.open(root);
    const ids = await stepsOf(engine, [() => write(root, 'a.txt', 'a1\n')]);
    const count = engine.list().length;
    const taken = injectInProcess({
      at: (seam) => {
        if (seam === 'applied') throw new Error('killed after applying');
      },
    });
    try {
      await expect(engine.revert(ids[0] ?? 0)).rejects.toThrow(/killed after applying/);
    } finally {
      taken();
    }
    expect(engine.list()).toHaveLength(count + 2);
    expect(engine.list().at(-1)?.trigger).toBe('revert');
    await engine.redo();
    expect(files(root)).toEqual({ 'README.md': '# project\n', 'a.txt': 'a1\n' });
  });

  it('--only takes back the step in those paths alone; a path the step did not change is refused', async () => {
    const root = sb.repo('only');
    write(root, 'a.txt', 'a0\n');
    write(root, 'src/b.txt', 'b0\n');
    const engine = sb.open(root);
    const ids = await stepsOf(engine, [
      () => {
        write(root, 'a.txt', 'a1\n');
        write(root, 'src/b.txt', 'b1\n');
      },
    ]);
    const now = files(root);
    const result = await engine.revert(ids[0] ?? 0, { only: ['src'] });
    expect(result.plan.changes).toEqual([{ path: 'src/b.txt', how: 'restored' }]);
    expect(files(root)).toEqual({ ...now, 'src/b.txt': 'b0\n' });
    await expect(engine.revert(ids[0] ?? 0, { only: ['README.md'] })).rejects.toThrow(/changed no files under "README.md"/);
  });

  it('of the newest step takes back what changed since its checkpoint', async () => {
    const root = sb.repo('newest');
    write(root, 'a.txt', 'a0\n');
    const engine = sb.open(root);
    const { record } = await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'edit a' });
    write(root, 'a.txt', 'a1\n');
    const result = await engine.revert(record.id);
    expect(result.plan.to).toBeNull();
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a0\n');
  });
});
