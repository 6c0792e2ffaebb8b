// `rewind show <id>`: what that one step changed (the checkpoint to the next one, or now).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-show-');
});
afterEach(() => sb.cleanup());

/** #1: a.txt=one; #2: a.txt=two, b.txt added; #3: same files as #2; then c.txt edited now. */
async function steps(): Promise<string> {
  const root = sb.repo('show');
  write(root, 'a.txt', 'one\n');
  expect((await rewind(['snapshot', '--label', 'first'], sb.env, root)).code).toBe(0);
  write(root, 'a.txt', 'two\n');
  write(root, 'src/b.txt', 'bee\n');
  expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
  // Nothing changed: a checkpoint only because it is labelled.
  expect((await rewind(['snapshot', '--label', 'again'], sb.env, root)).code).toBe(0);
  write(root, 'c.txt', 'now\n');
  return root;
}

describe('rewind show', () => {
  it('shows the step of a checkpoint: from it to the next checkpoint', async () => {
    const root = await steps();
    const result = await rewind(['show', '1'], sb.env, root);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('diff --git a/a.txt b/a.txt\n');
    expect(result.stdout).toContain('-one\n+two\n');
    expect(result.stdout).toContain('+++ b/src/b.txt\n@@ -0,0 +1 @@\n+bee\n');
    expect(result.stdout).not.toContain('c.txt');
    expect(result.stdout).not.toContain('\x1b[');
    expect((await rewind(['show', '1', '--name-status'], sb.env, root)).stdout).toBe('M\ta.txt\nA\tsrc/b.txt\n');
  });

  it('the newest checkpoint’s step runs to the files as they are now; an empty step says so', async () => {
    const root = await steps();
    expect((await rewind(['show', '3', '--name-status'], sb.env, root)).stdout).toBe('A\tc.txt\n');
    const empty = await rewind(['show', '2'], sb.env, root);
    expect(empty).toEqual({ code: 0, stdout: '', stderr: 'rewind: the step of #2 changed no files (#2 -> #3)\n' });
  });

  it('PATHs limit it, relative to where it runs', async () => {
    const root = await steps();
    expect((await rewind(['show', '1', '--name-status', 'src'], sb.env, root)).stdout).toBe('A\tsrc/b.txt\n');
    expect((await rewind(['show', '1', '--name-status', 'b.txt'], sb.env, `${root}/src`)).stdout).toBe('A\tsrc/b.txt\n');
  });

  it('passes over a checkpoint that can no longer be read, and says so; such a checkpoint has no step to show', async () => {
    const root = await steps();
    write(root, 'a.txt', 'three\n');
    expect((await rewind(['snapshot', '--label', 'fourth'], sb.env, root)).code).toBe(0);
    // #2 marked as the engine marks checkpoints whose objects the project's gc pruned.
    const [store] = fs.readdirSync(path.join(sb.store, 'history'));
    const log = path.join(sb.store, 'history', store ?? '', 'checkpoints.jsonl');
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: number; unrestorable?: boolean });
    fs.writeFileSync(log, `${lines.map((record) => JSON.stringify(record.id === 2 ? { ...record, unrestorable: true } : record)).join('\n')}\n`);
    const shown = await rewind(['show', '1', '--name-status'], sb.env, root);
    expect(shown).toEqual({ code: 0, stdout: 'M\ta.txt\nA\tsrc/b.txt\n', stderr: 'rewind: #2 can no longer be read: shown from #1 to #3\n' });
    const gone = await rewind(['show', '2'], sb.env, root);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^rewind: checkpoint #2's step cannot be shown: its files are no longer restorable/);
    expect((await rewind(['fork', '2'], sb.env, root)).stderr).toMatch(/^rewind: checkpoint #2 cannot be forked: its files are no longer restorable/);
  });

  it('bad input is one line, non-zero', async () => {
    const root = await steps();
    expect(await rewind(['show', '7'], sb.env, root)).toMatchObject({ code: 1, stdout: '', stderr: 'rewind: there is no checkpoint #7 in this project: `rewind list` shows them\n' });
    expect((await rewind(['show'], sb.env, root)).code).toBe(2);
    expect((await rewind(['show', '1', '/etc'], sb.env, root)).stderr).toMatch(/is outside the project/);
  });
});

describe('rewind show on a prompt', () => {
  it('shows its whole turn: each of its tool steps, named, one after the other', async () => {
    const root = sb.repo('turn');
    const snap = async (trigger: string, label: string) => expect((await rewind(['snapshot', '--trigger', trigger, '--label', label], sb.env, root)).code).toBe(0);
    await snap('UserPromptSubmit', 'add two files');
    await snap('PreToolUse:Write', 'Write a.txt');
    write(root, 'a.txt', 'a\n');
    await snap('PreToolUse:Write', 'Write b.txt');
    write(root, 'b.txt', 'b\n');
    await snap('UserPromptSubmit', 'next');
    const result = await rewind(['show', '1', '--name-status'], sb.env, root);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('# #2 Write a.txt: #2 -> #3\nA\ta.txt\n# #3 Write b.txt: #3 -> #4\nA\tb.txt\n');
    // A tool step alone: its own step only.
    expect((await rewind(['show', '3', '--name-status'], sb.env, root)).stdout).toBe('A\tb.txt\n');
  });
});
