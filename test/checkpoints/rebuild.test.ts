// The checkpoint list is a cache of what the shadow repo holds: damaged, it is reported
// and left alone; moved aside, it is rebuilt, and no checkpoint id is ever reused.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-rebuild-');
});
afterEach(() => sb.cleanup());

describe('checkpoints.jsonl', () => {
  it('damaged: one clear line naming the file and line, exit 1, the file untouched; moved aside: rebuilt from the shadow repo', async () => {
    const root = sb.repo('rebuild');
    const checkpoints = sb.open(root);
    write(root, 'a.txt', 'a\n');
    const one = (await checkpoints.snapshot({ label: 'first label', trigger: 'enter' })).record;
    const two = (await checkpoints.snapshot({ label: 'nothing changed' })).record;
    write(root, 'a.txt', 'b\n');
    const three = (await checkpoints.snapshot({ label: 'third' })).record;
    expect(two.deduped).toBe(true);

    const log = checkpoints.store.log;
    fs.appendFileSync(log, 'not json\n');
    const damaged = fs.readFileSync(log);
    const listed = await rewind(['list'], sb.env, root);
    expect(listed.code).toBe(1);
    expect(listed.stderr.trim().split('\n')).toHaveLength(1);
    expect(listed.stderr).toContain(`${log} is damaged at line 4`);
    expect(fs.readFileSync(log)).toEqual(damaged);

    fs.renameSync(log, `${log}.bad`);
    const rebuilt = await rewind(['list', '--json'], sb.env, root);
    expect(rebuilt.code).toBe(0);
    const rows = JSON.parse(rebuilt.stdout) as { id: number; commit: string; label: string; trigger: string }[];
    expect(rows.map((row) => [row.id, row.commit, row.trigger])).toEqual([
      [one.id, one.commit, 'enter'],
      [two.id, two.commit, 'unknown'],
      [three.id, three.commit, 'manual'],
    ]);
    expect(rows[0]?.label).toBe('first label');
    expect(rows[2]?.label).toBe('third');

    write(root, 'a.txt', 'c\n');
    const four = (await sb.open(root).snapshot({ label: 'after the rebuild' })).record;
    expect(four.id).toBe(three.id + 1);
  });
});
