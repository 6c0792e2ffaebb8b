// Retention ages an imported checkpoint from when it was imported (`rewind import`), not from
// when it was taken on the other machine: a session handed over weeks later is not dropped on
// arrival, and goes `checkpoint_retention_days` after it came.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import { exportSession } from '../../src/services/transfer/exportSession.js';
import { importSession, readExportFile } from '../../src/services/transfer/importSession.js';
import { defaultSettings, write, type Sandbox } from '../helpers/tempRepo.js';
import { twoMachines } from '../helpers/twoMachines.js';

const day = 24 * 60 * 60 * 1000;
const start = Date.parse('2026-01-01T00:00:00Z');

let here: Sandbox;
let there: Sandbox;
let clock: number;
twoMachines('rewind-retention-', (a, b) => {
  here = a;
  there = b;
  clock = start;
});

const open = (sb: Sandbox, dir: string) => CheckpointEngine.open({ cwd: dir, settings: defaultSettings, home: sb.store, env: sb.env, now: () => clock });

describe('retention of imported checkpoints', () => {
  it('counts their age from the import', async () => {
    const root = here.repo('proj');
    const source = open(here, root);
    for (const text of ['one', 'two']) {
      write(root, 'a.txt', `${text}\n`);
      await source.snapshot({ label: text });
    }
    const { data } = await exportSession(source, 1, 2, false);

    clock = start + 30 * day;
    const parent = there.folder('.');
    there.git(parent, 'clone', '-q', root, 'clone');
    const clone = path.join(parent, 'clone');
    write(clone, 'mine.txt', 'local\n');
    const target = open(there, clone);
    await target.snapshot({ label: 'local, before the import' });
    clock = start + 31 * day;
    const { added } = await importSession(target, readExportFile(data, 'file'), 'file', there.env);
    expect(added.map((record) => [record.time, record.imported?.at])).toEqual([
      [new Date(start).toISOString(), new Date(start + 31 * day).toISOString()],
      [new Date(start).toISOString(), new Date(start + 31 * day).toISOString()],
    ]);

    const policy = { days: 14, maxGb: 0 };
    clock = start + 45 * day;
    // The local checkpoint is 15 days old and goes; the imported ones came 14 days ago and stay.
    expect((await target.prune(policy)).byAge).toEqual([1]);
    expect(target.list().map((record) => record.label)).toEqual(['one', 'two']);
    clock = start + 46 * day;
    // The newest is always kept.
    expect((await target.prune(policy)).byAge).toEqual([2]);
  });
});
