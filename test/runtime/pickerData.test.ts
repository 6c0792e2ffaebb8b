// The picker's rows from real checkpoints: the files each row's step changed (the newest
// row's from the work tree now), and a checkpoint whose files can no longer be restored.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modeOptions } from '../../src/app/picker/modeOptions.js';
import { buildRows } from '../../src/app/picker/pickerRows.js';
import { whyUnrestorable } from '../../src/checkpoints/store/record.js';
import { redoLast } from '../../src/checkpoints/restore/redo.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { pickerCheckpoints, PreviewLoader } from '../../src/runtime/restore/pickerData.js';
import { commitOnFeatureBranch, dropFeatureBranch } from '../helpers/repoShapes.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-picker-data-');
});
afterEach(() => sb.cleanup());

/** The ids of the checkpoint rows that filtering by `filter` keeps. */
function found(rows: Parameters<typeof buildRows>[0], filter: string): number[] {
  return buildRows(rows, false, filter).flatMap((row) => (row.kind === 'checkpoint' ? [row.checkpoint.id] : []));
}

describe("the rows' files", () => {
  it("each row is found by the files its step changed, the newest row by those changed since it", async () => {
    const root = sb.repo('paths');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot({ label: 'before the first edit' });
    write(root, 'first.txt', 'one\n');
    await checkpoints.snapshot({ label: 'before the second edit' });
    write(root, 'second.txt', 'two\n');
    const records = checkpoints.list();

    const before = pickerCheckpoints(records);
    expect(found(before, 'first.txt')).toEqual([1]);
    expect(before.at(-1)).toMatchObject({ id: 2, files: null, paths: [] });

    const now = await new PreviewLoader(sb.project(root)).workTree();
    const rows = pickerCheckpoints(records, now);
    expect(rows.at(-1)).toMatchObject({ id: 2, files: 1, paths: ['second.txt'] });
    expect(found(rows, 'second.txt')).toEqual([2]);
    expect(found(rows, 'first.txt')).toEqual([1]);
  });
});

describe('a checkpoint whose borrowed objects were pruned, in the picker', () => {
  it('is marked, offers no file modes, previews and restores as no longer restorable, all for one reason', async () => {
    const root = sb.repo('pruned');
    commitOnFeatureBranch(sb, root);
    const checkpoints = sb.open(root);
    const gone = (await checkpoints.snapshot({ label: 'on the feature branch' })).record;
    dropFeatureBranch(sb, root);
    write(root, 'two.txt', 'two\n');
    const kept = (await checkpoints.snapshot({ label: 'two' })).record;
    expect((await checkpoints.repair()).broken).toEqual([gone.id]);

    const records = checkpoints.list();
    const reason = whyUnrestorable(checkpoints.get(gone.id));
    expect(reason).toMatch(/no longer restorable/);
    const rows = pickerCheckpoints(records);
    const allowed = { both: { enabled: true }, files: { enabled: true }, conversation: { enabled: true } };
    const modes = (id: number) => {
      const row = rows.find((candidate) => candidate.id === id);
      if (!row) throw new Error(`no row #${id}`);
      return Object.fromEntries(modeOptions(row, allowed).map((option) => [option.mode, option.reason ?? 'enabled']));
    };
    expect(modes(gone.id)).toEqual({ both: reason, files: reason, conversation: 'enabled' });
    expect(modes(kept.id)).toEqual({ both: 'enabled', files: 'enabled', conversation: 'enabled' });

    const previews = new PreviewLoader(sb.project(root));
    expect((await previews.load(gone.id)).error).toBe(reason);
    expect((await previews.load(kept.id)).error).toBeUndefined();
    await expect(restoreCheckpoint(checkpoints, gone.id)).rejects.toThrow(`checkpoint #${gone.id} is no longer restorable`);
  });
});

describe("the preview is the restore's own plan", () => {
  it('lists what the restore changes, with its counts, and shows what it leaves alone (a nested repository, ignored files) as left alone', async () => {
    const root = sb.repo('plan');
    write(root, '.gitignore', 'cache/\n');
    write(root, 'a.txt', 'one\ntwo\n');
    const checkpoints = sb.open(root);
    const target = (await checkpoints.snapshot({ label: 'target' })).record.id;
    fs.rmSync(path.join(root, '.gitignore'));
    write(root, 'cache/blob.bin', 'cached\n');
    write(root, 'a.txt', 'one\n');
    write(root, 'new.txt', 'new\n');
    write(sb.repo('plan/inner'), 'lib.c', 'int x;\n');
    await checkpoints.snapshot({ label: 'now' });

    const preview = await new PreviewLoader(sb.project(root)).load(target);
    expect(preview.error).toBeUndefined();
    expect(preview.files).toEqual([
      { path: '.gitignore', status: 'A', added: 1, removed: 0 },
      { path: 'a.txt', status: 'M', added: 1, removed: 0 },
      { path: 'new.txt', status: 'D', added: 0, removed: 1 },
    ]);
    const leftAlone = Object.fromEntries(preview.skipped.map((file) => [file.path, file.reason]));
    expect(leftAlone['inner']).toMatch(/nested repository/);
    expect(leftAlone['cache/blob.bin']).toMatch(new RegExp(`ignored by the rules of checkpoint #${target}`));
    const restored = await restoreCheckpoint(checkpoints, target);
    expect([...restored.changed, ...restored.deleted].sort()).toEqual(preview.files.map((file) => file.path).sort());
  });

  it('after a redo nothing is marked as edited after the newest checkpoint (the same rule as restore and --dry-run)', async () => {
    const root = sb.repo('after-redo');
    write(root, 'a.txt', 'a1\n');
    const checkpoints = sb.open(root);
    const first = (await checkpoints.snapshot({ label: 'A' })).record.id;
    write(root, 'a.txt', 'a2\n');
    write(root, 'b.txt', 'b2\n');
    await checkpoints.snapshot({ label: 'B' });
    await restoreCheckpoint(checkpoints, first);
    await redoLast(checkpoints);
    // Back at B's files, as the redo point holds them: nobody edited anything since.
    const preview = await new PreviewLoader(sb.project(root)).load(first);
    expect(preview.files.map((file) => file.path)).toEqual(['a.txt', 'b.txt']);
    expect(preview.unsaved).toEqual([]);
    // An edit now is marked.
    write(root, 'b.txt', 'b3, by hand\n');
    expect((await new PreviewLoader(sb.project(root)).load(first)).unsaved).toEqual(['b.txt']);
  });
});

