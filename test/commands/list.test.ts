// `rewind list`: the stable JSON shape and what "files" counts.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { commitCount, shadowGit } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-list-');
});
afterEach(() => sb.cleanup());

interface Row {
  id: number;
  time: string;
  session: string | null;
  agent: string | null;
  trigger: string;
  label: string;
  commit: string;
  files: number | null;
  kind: string;
  turn: number | null;
  foldedInto: number | null;
  skipped: unknown[];
  conversation: unknown;
}

async function listJson(root: string): Promise<Row[]> {
  const result = await rewind(['list', '--json'], sb.env, root);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as Row[];
}

describe('rewind list', () => {
  it('with no checkpoints: [] for --json, a hint for people; nothing is created', async () => {
    const root = sb.repo('empty');
    expect(await listJson(root)).toEqual([]);
    const human = await rewind(['list'], sb.env, root);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^no checkpoints yet/);
    expect(fs.readdirSync(sb.store)).toEqual([]);
  });

  it("--json rows have exactly the documented keys; files (and a text row's `N files`) count the files that row's step changed, up to the next checkpoint or to now", async () => {
    const root = sb.repo('rows');
    const env = { ...sb.env, REWIND_SESSION: 'session-1', REWIND_AGENT: 'claude' };
    const snap = async (label: string) => {
      const result = await rewind(['snapshot', '--json', '--label', label], env, root);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as { id: number; commit: string };
    };
    write(root, 'a.txt', 'a\n');
    const one = await snap('one');
    write(root, 'a.txt', 'a, edited\n');
    write(root, 'b.txt', 'b\n');
    const two = await snap('two');
    fs.rmSync(path.join(root, 'b.txt'));
    const three = await snap('three');

    let rows = await listJson(root);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['agent', 'commit', 'confirmed', 'conversation', 'files', 'foldedInto', 'fromChangedPaths', 'id', 'kind', 'label', 'session', 'skipped', 'time', 'trigger', 'turn']);
      // `rewind snapshot` walks the whole tree: nothing to confirm.
      expect(row).toMatchObject({ kind: 'mark', turn: null, foldedInto: null, fromChangedPaths: false, confirmed: true });
      expect(row.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(new Date(row.time).toISOString()).toBe(row.time);
    }
    expect(rows.map(({ id, label, trigger, session, agent, commit, skipped, conversation }) => ({ id, label, trigger, session, agent, commit, skipped, conversation }))).toEqual([
      { id: 1, label: 'one', trigger: 'manual', session: 'session-1', agent: 'claude', commit: one.commit, skipped: [], conversation: null },
      { id: 2, label: 'two', trigger: 'manual', session: 'session-1', agent: 'claude', commit: two.commit, skipped: [], conversation: null },
      { id: 3, label: 'three', trigger: 'manual', session: 'session-1', agent: 'claude', commit: three.commit, skipped: [], conversation: null },
    ]);
    // Each older row: the files its step changed up to the next checkpoint, as git counts them.
    const shadow = sb.open(root).repo.gitDir;
    const changed = (from: string, to: string) => shadowGit(shadow, 'diff', '--name-only', from, to).split('\n').filter(Boolean).length;
    expect(changed(one.commit, two.commit)).toBe(2);
    expect(changed(two.commit, three.commit)).toBe(1);
    // The newest: the live work tree against it (nothing yet).
    expect(rows.map((row) => row.files)).toEqual([2, 1, 0]);

    // One edit after the newest checkpoint: restoring it would change one file.
    write(root, 'a.txt', 'hand edit after the last checkpoint\n');
    rows = await listJson(root);
    expect(rows.map((row) => row.files)).toEqual([2, 1, 1]);
    write(root, 'c.txt', 'new\n');
    expect((await listJson(root)).map((row) => row.files)).toEqual([2, 1, 2]);
    // Listing takes no checkpoint.
    expect(commitCount(shadow)).toBe(3);

    // The next snapshot still sees both changes (listing staged them in the shadow index).
    const four = await rewind(['snapshot'], env, root);
    expect(four.stdout).toMatch(/^checkpoint #4 \([0-9a-f]{12}\): 2 file\(s\) changed\n$/);
    expect((await listJson(root)).map((row) => row.files)).toEqual([2, 1, 2, 0]);

    const human = await rewind(['list'], sb.env, root);
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^#1 +\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} {2}2 files +one$/);
    expect(lines.map((line) => / {2}(\d+) files? /.exec(line)?.[1])).toEqual(['2', '1', '2', '0']);
  });
});
