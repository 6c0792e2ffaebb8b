// `--json` on `rewind show`, `rewind diff`, `rewind clean` and `rewind config get`: one JSON
// answer on stdout that says what the human output says.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-json-');
});
afterEach(() => sb.cleanup());

/** #1 a.txt=one (a prompt); #2 a tool step of its turn: a.txt=two, src/b.txt added, gone.txt deleted; #3 marked; then c.txt added now. */
async function steps(): Promise<string> {
  const root = sb.repo('json');
  write(root, 'a.txt', 'one\n');
  write(root, 'gone.txt', 'bye\n');
  const env = { ...sb.env, REWIND_SESSION: 's1' };
  expect((await rewind(['snapshot', '--trigger', 'UserPromptSubmit', '--label', 'make it two'], env, root)).code).toBe(0);
  expect((await rewind(['snapshot', '--trigger', 'PreToolUse:Edit', '--label', 'Edit a.txt'], env, root)).code).toBe(0);
  write(root, 'a.txt', 'two\n');
  write(root, 'src/b.txt', 'bee\n');
  fs.rmSync(path.join(root, 'gone.txt'));
  expect((await rewind(['snapshot', '--label', 'after'], sb.env, root)).code).toBe(0);
  write(root, 'c.txt', 'now\n');
  return root;
}

function parsed(result: { code: number; stdout: string; stderr: string }): Record<string, unknown> {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('--json', () => {
  it('rewind show: the step, its files and patch; a turn part by part; --name-status drops the patch', async () => {
    const root = await steps();
    const step = parsed(await rewind(['show', '2', '--json'], sb.env, root));
    expect(step).toMatchObject({ id: 2, kind: 'step', to: 3, passedOver: [] });
    const [part] = step.parts as Record<string, unknown>[];
    expect(part).toMatchObject({
      id: 2,
      label: 'Edit a.txt',
      to: 3,
      files: [
        { status: 'M', path: 'a.txt' },
        { status: 'D', path: 'gone.txt' },
        { status: 'A', path: 'src/b.txt' },
      ],
    });
    expect(part?.patch).toContain('diff --git a/a.txt b/a.txt\n');
    expect(part?.patch).toContain('-one\n+two\n');
    expect(part?.patch).not.toContain('\x1b[');
    // The prompt's turn: its own (empty) part, then its tool step's.
    const turn = parsed(await rewind(['show', '1', '--json', '--name-status'], sb.env, root));
    expect(turn).toMatchObject({ id: 1, kind: 'turn', to: 3 });
    expect((turn.parts as Record<string, unknown>[]).map((p) => [p.id, p.to, (p.files as unknown[]).length, 'patch' in p])).toEqual([
      [1, 2, 0, false],
      [2, 3, 3, false],
    ]);
    // The newest runs to the files now (to: null); PATHs limit it.
    const newest = parsed(await rewind(['show', '3', '--json'], sb.env, root));
    expect(newest).toMatchObject({ id: 3, to: null, parts: [{ to: null, files: [{ status: 'A', path: 'c.txt' }] }] });
    const limited = parsed(await rewind(['show', '2', 'src', '--json'], sb.env, root));
    expect((limited.parts as Record<string, unknown>[])[0]?.files).toEqual([{ status: 'A', path: 'src/b.txt' }]);
  });

  it('rewind diff: what restoring <id> changes, as files and a patch, and what it leaves alone', async () => {
    const root = await steps();
    write(root, '.gitignore', 'ignored/\n');
    const diff = parsed(await rewind(['diff', '1', '--json'], sb.env, root));
    expect(diff.id).toBe(1);
    expect(diff.files).toEqual([
      { status: 'D', path: '.gitignore' },
      { status: 'M', path: 'a.txt' },
      { status: 'D', path: 'c.txt' },
      { status: 'A', path: 'gone.txt' },
      { status: 'D', path: 'src/b.txt' },
    ]);
    expect(diff.patch).toContain('-two\n+one\n');
    expect(diff.leftAlone).toEqual([]);
    const human = await rewind(['diff', '1', '--name-status'], sb.env, root);
    const names = parsed(await rewind(['diff', '1', '--json', '--name-status'], sb.env, root));
    expect('patch' in names).toBe(false);
    expect((names.files as { status: string; path: string }[]).map((f) => `${f.status}\t${f.path}\n`).join('')).toBe(human.stdout);
  });

  it('rewind clean: the stores, their size, and whether they were deleted; nothing else on stdout', async () => {
    const root = await steps();
    const none = parsed(await rewind(['clean', '--orphans', '--json'], sb.env, root));
    expect(none).toEqual({ which: 'orphans', stores: [], bytes: 0, deleted: false });
    const refused = await rewind(['clean', '--project', '--json'], sb.env, root);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/pass --yes/);
    const [store] = fs.readdirSync(path.join(sb.store, 'history'));
    const cleaned = parsed(await rewind(['clean', '--project', '--yes', '--json'], sb.env, root));
    expect(cleaned).toMatchObject({ which: 'project', deleted: true, stores: [{ project: root, store: path.join(sb.store, 'history', store ?? ''), checkpoints: 3, exists: true }] });
    expect(cleaned.bytes).toBeGreaterThan(0);
    expect((cleaned.stores as { bytes: number }[])[0]?.bytes).toBe(cleaned.bytes);
    expect(fs.existsSync(path.join(sb.store, 'history', store ?? ''))).toBe(false);
  });

  it('rewind config get: the key, its effective value (lists as lists) and its default; --json on other forms is a usage error', async () => {
    const home = sb.folder('anywhere');
    expect(parsed(await rewind(['config', 'get', 'gc_every', '--json'], sb.env, home))).toEqual({ key: 'gc_every', value: 20, default: 20 });
    expect((await rewind(['config', 'set', 'checkpoint_exclude', '*.log,tmp/'], sb.env, home)).code).toBe(0);
    expect(parsed(await rewind(['config', 'get', 'checkpoint_exclude', '--json'], sb.env, home))).toEqual({ key: 'checkpoint_exclude', value: ['*.log', 'tmp/'], default: [] });
    const other = await rewind(['config', 'path', '--json'], sb.env, home);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^rewind: --json goes with `rewind config get KEY`/);
    expect((await rewind(['config', 'get', 'no_such_key', '--json'], sb.env, home)).code).not.toBe(0);
  });
});
