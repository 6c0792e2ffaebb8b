// The picker's rows from real checkpoints: the files each row's step changed (the newest
// row's from the work tree now), and a checkpoint whose files can no longer be restored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modeOptions } from '../../src/app/picker/modeOptions.js';
import { buildRows } from '../../src/app/picker/pickerRows.js';
import { whyUnrestorable } from '../../src/checkpoints/record.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { pickerCheckpoints, PreviewLoader } from '../../src/session/pickerData.js';
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
    expect(before.at(-1)).toMatchObject({ id: 2, files: null, paths: undefined });

    const now = await new PreviewLoader(checkpoints).workTree();
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

    const previews = new PreviewLoader(checkpoints);
    expect((await previews.load(gone.id)).error).toBe(reason);
    expect((await previews.load(kept.id)).error).toBeUndefined();
    await expect(restoreCheckpoint(checkpoints, gone.id)).rejects.toThrow(`checkpoint #${gone.id} is no longer restorable`);
  });
});
