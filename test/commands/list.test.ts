// `rewind list`: the stable JSON shape and what "files" counts; read from the checkpoint log
// alone (the files now only with --now), so it answers at once at any size.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { memoryIO, rewind } from '../helpers/io.js';
import { holdLock } from '../helpers/holdLock.js';
import { requireBuiltCli, runBuiltCli, seamsEnv } from '../helpers/restoreKit.js';
import { commitCount, shadowGit } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { notReadNote } from '../../src/commands/list.js';
import { sessionSteps } from '../../src/services/steps/sessionSteps.js';

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

async function listJson(root: string, more: string[] = []): Promise<Row[]> {
  const result = await rewind(['list', '--json', ...more], sb.env, root);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as Row[];
}

/** What `rewind list` prints to a terminal (stdout a TTY, as it is for a person). */
async function listAtTerminal(root: string, more: string[]): Promise<string> {
  const { io, stdout } = memoryIO(sb.env, root);
  Object.assign(io.stdout, { isTTY: true });
  expect(await run(['list', ...more], io)).toBe(0);
  return stdout();
}

/** The shadow index as a snapshot or `git add -A` leaves it: its bytes and mtime. */
function indexState(root: string): { bytes: string; mtimeMs: number } {
  const file = sb.open(root).repo.indexFile;
  return { bytes: fs.readFileSync(file).toString('hex'), mtimeMs: fs.statSync(file).mtimeMs };
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

  it("--json rows have exactly the documented keys; files (and a text row's `N files`) count the files that row's step changed, up to the next checkpoint, or with --now to now", async () => {
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
      expect(Object.keys(row).sort()).toEqual(['agent', 'commit', 'confirmed', 'conversation', 'files', 'foldedInto', 'fromChangedPaths', 'id', 'imported', 'kind', 'label', 'session', 'skipped', 'time', 'trigger', 'turn']);
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
    // The newest: what changed since it is not read (null); with --now, the live work tree against it (nothing yet).
    expect(rows.map((row) => row.files)).toEqual([2, 1, null]);
    expect((await listJson(root, ['--now'])).map((row) => row.files)).toEqual([2, 1, 0]);

    // One edit after the newest checkpoint: restoring it would change one file.
    write(root, 'a.txt', 'hand edit after the last checkpoint\n');
    rows = await listJson(root, ['--now']);
    expect(rows.map((row) => row.files)).toEqual([2, 1, 1]);
    write(root, 'c.txt', 'new\n');
    expect((await listJson(root, ['--now'])).map((row) => row.files)).toEqual([2, 1, 2]);
    expect((await listJson(root)).map((row) => row.files)).toEqual([2, 1, null]);
    // Listing takes no checkpoint.
    expect(commitCount(shadow)).toBe(3);

    // The next snapshot still sees both changes (--now staged them in the shadow index).
    const four = await rewind(['snapshot'], env, root);
    expect(four.stdout).toMatch(/^checkpoint #4 \([0-9a-f]{12}\): 2 file\(s\) changed\n$/);
    expect((await listJson(root, ['--now'])).map((row) => row.files)).toEqual([2, 1, 2, 0]);

    // For people: the same counts, "?" where the files were not read; at a terminal, a line under the rows says why.
    const human = await rewind(['list'], sb.env, root);
    expect(human).toMatchObject({ code: 0, stderr: '' });
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^#1 +\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} {2}2 files +one$/);
    expect(lines.map((line) => / {2}(\d+ files?|\?) /.exec(line)?.[1])).toEqual(['2 files', '1 file', '2 files', '?']);
    const terminal = await listAtTerminal(root, []);
    expect(terminal.split('\n').slice(0, 4)).toEqual(lines);
    expect(terminal.split('\n').slice(4)).toEqual(['(counts run to #4, the newest checkpoint; what changed since it, "?", is not read: `rewind list --now` counts it)', '']);
    expect(await listAtTerminal(root, ['--now'])).not.toMatch(/not read/);
    const now = await rewind(['list', '--now'], sb.env, root);
    expect(now).toMatchObject({ code: 0, stderr: '' });
    expect(now.stdout.trimEnd().split('\n').map((line) => / {2}(\d+) files? /.exec(line)?.[1])).toEqual(['2', '1', '2', '0']);
  });

  it('reads no file of the project: the shadow index stays as the newest snapshot left it, however much changed since; --now is what reads them', async () => {
    const root = sb.repo('no-scan');
    const env = { ...sb.env, REWIND_SESSION: 'session-1' };
    write(root, 'a.txt', 'a\n');
    expect((await rewind(['snapshot', '--label', 'one'], env, root)).code).toBe(0);
    write(root, 'a.txt', 'a, edited\n');
    expect((await rewind(['snapshot', '--label', 'two'], env, root)).code).toBe(0);
    // Edits after the newest checkpoint: a scan (git add -A into the shadow index) would stage them.
    write(root, 'a.txt', 'edited after the newest checkpoint\n');
    write(root, 'new.txt', 'new\n');
    fs.rmSync(path.join(root, 'README.md'));
    const before = indexState(root);

    const human = await rewind(['list'], sb.env, root);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^#2 .* \? +two$/m);
    expect((await listJson(root)).map((row) => row.files)).toEqual([1, null]);
    expect(indexState(root)).toEqual(before);

    // --now reads the files: it stages them (the index changes) and counts them.
    expect((await listJson(root, ['--now'])).map((row) => row.files)).toEqual([1, 3]);
    expect(indexState(root)).not.toEqual(before);
  });
});

describe('the built `rewind list` (dist/cli-bundle/list.cjs, the engine from listEngine.cjs only when needed)', () => {
  beforeAll(() => requireBuiltCli());

  /** A project with checkpoints "one" and "two", a.txt edited between them. */
  async function twoCheckpoints(name: string): Promise<string> {
    const root = sb.repo(name);
    write(root, 'a.txt', 'a\n');
    expect((await rewind(['snapshot', '--label', 'one'], sb.env, root)).code).toBe(0);
    write(root, 'a.txt', 'a, edited\n');
    expect((await rewind(['snapshot', '--label', 'two'], sb.env, root)).code).toBe(0);
    return root;
  }

  it('answers at once while another rewind holds the project lock (it takes no lock), and --now, which reads the files under the lock, waits for it', async () => {
    const root = await twoCheckpoints('locked');
    write(root, 'b.txt', 'after the newest\n');
    // A waiting rewind says so at once and gives up after the wait: 3 s here.
    const env = { ...sb.env, ...seamsEnv({ REWIND_TEST_LOCK_WAIT_MS: '3000' }) };
    const lock = await holdLock(sb.open(root), 'a test holding the lock');
    try {
      const listed = await runBuiltCli(['list'], env, root);
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(listed.stdout.trimEnd().split('\n').map((line) => / {2}(\d+ files?|\?) /.exec(line)?.[1])).toEqual(['1 file', '?']);
      const now = await runBuiltCli(['list', '--now'], env, root);
      expect(now.stderr).toMatch(/another rewind is working on this project \(pid \d+, a test holding the lock/);
    } finally {
      await lock.release();
    }
    const now = await runBuiltCli(['list', '--now', '--json'], env, root);
    expect(now).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(now.stdout) as Row[]).map((row) => row.files)).toEqual([1, 1]);
  }, 30_000);

  it('a list to rebuild (moved aside) goes through the engine, which rebuilds it, as in-process', async () => {
    const root = await twoCheckpoints('rebuilt');
    const log = sb.open(root).store.log;
    fs.renameSync(log, `${log}.bad`);
    const listed = await runBuiltCli(['list', '--json'], sb.env, root);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Row[]).map((row) => [row.id, row.label])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(fs.existsSync(log)).toBe(true);
  }, 30_000);
});

describe("the note under the rows at a terminal", () => {
  const record = (id: number, trigger: string, label: string) => ({ id, time: '2026-12-06T10:00:00.000Z', session: 's', trigger, label, changedSincePrevious: 1, changedPaths: ['a.txt'] });

  it('names the row the newest checkpoint is in when it has none of its own, and a "?" only where a row shows one', () => {
    // The turn's end mark, nothing changed after it: folded into the tool step, whose count is known.
    const ended = [record(1, 'UserPromptSubmit', 'fix it'), record(2, 'PreToolUse:Edit', 'Edit a.txt'), record(3, 'end', 'turn end')];
    const steps = sessionSteps(ended, { changedSinceNewest: 0, changedPathsSinceNewest: [] });
    expect(steps.map((step) => step.id)).toEqual([1, 2]);
    expect(notReadNote(3, steps)).toBe('(counts run to #3, the newest checkpoint, inside the step of #2; what changed since it is not read: `rewind list --now` counts it)');
    const open = sessionSteps(ended.slice(0, 2));
    expect(notReadNote(2, open)).toBe('(counts run to #2, the newest checkpoint; what changed since it, "?", is not read: `rewind list --now` counts it)');
  });
});
