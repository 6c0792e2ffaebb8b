// `rewind diff <id>`: what restoring <id> would change, from now to the checkpoint.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-diff-');
});
afterEach(() => sb.cleanup());

const binary = Buffer.from([0x00, 0x01, 0xff, 0x00, 0xfe]);

/** A project with checkpoint #1 of a known state, then edits after it. */
async function projectWithEdits(): Promise<string> {
  const root = sb.repo('diff');
  write(root, 'src/app.ts', 'const answer = 41;\n');
  write(root, 'notes.md', 'first line\n');
  write(root, 'data.bin', binary);
  write(root, 'café.txt', 'unicode name\n');
  write(root, 'old.txt', 'deleted after the checkpoint\n');
  const snap = await rewind(['snapshot'], sb.env, root);
  expect(snap.code).toBe(0);
  write(root, 'src/app.ts', 'const answer = 42;\n');
  write(root, 'notes.md', 'first line\nsecond line\n');
  write(root, 'data.bin', Buffer.concat([binary, Buffer.from([0x00, 0x02])]));
  write(root, 'café.txt', 'unicode name, edited\n');
  fs.rmSync(path.join(root, 'old.txt'));
  write(root, 'new.txt', 'created after the checkpoint\n');
  return root;
}

describe('rewind diff', () => {
  it('prints a unified diff from now to the checkpoint: its content appears as + lines', async () => {
    const root = await projectWithEdits();
    const result = await rewind(['diff', '1'], sb.env, root);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const out = result.stdout;
    expect(out).toContain('diff --git a/src/app.ts b/src/app.ts\n');
    expect(out).toContain('-const answer = 42;\n+const answer = 41;\n');
    expect(out).toContain(' first line\n-second line\n');
    expect(out).toContain('+deleted after the checkpoint\n');
    expect(out).toContain('-created after the checkpoint\n');
    expect(out).toContain('Binary files a/data.bin and b/data.bin differ\n');
    expect(out).not.toContain('\x1b[');
  });

  it('--name-status prints status and path per file; a PATH argument limits it', async () => {
    const root = await projectWithEdits();
    const all = await rewind(['diff', '1', '--name-status'], sb.env, root);
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n').filter(Boolean).sort()).toEqual(['A\told.txt', 'D\tnew.txt', 'M\tcafé.txt', 'M\tdata.bin', 'M\tnotes.md', 'M\tsrc/app.ts']);

    expect((await rewind(['diff', '1', '--name-status', 'notes.md'], sb.env, root)).stdout).toBe('M\tnotes.md\n');
    expect((await rewind(['diff', '1', '--name-status', 'src', 'new.txt'], sb.env, root)).stdout).toBe('D\tnew.txt\nM\tsrc/app.ts\n');
    // Paths are relative to the folder the command runs in.
    expect((await rewind(['diff', '1', '--name-status', 'app.ts'], sb.env, path.join(root, 'src'))).stdout).toBe('M\tsrc/app.ts\n');
    const limited = await rewind(['diff', '1', 'src/app.ts'], sb.env, root);
    expect(limited.stdout).toContain('+const answer = 41;\n');
    expect(limited.stdout).not.toContain('notes.md');
  });

  it('diff of an unchanged work tree against the newest checkpoint is empty', async () => {
    const root = sb.repo('clean');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    expect(await rewind(['diff', '1'], sb.env, root)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('an unknown id is exit 1 naming it; a non-number is a usage error (exit 2)', async () => {
    const root = sb.repo('errors');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    const missing = await rewind(['diff', '99'], sb.env, root);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/no checkpoint #99/);
    expect(missing.stderr.split('\n').filter(Boolean)).toHaveLength(1);

    const word = await rewind(['diff', 'abc'], sb.env, root);
    expect(word.code).toBe(2);
    expect(word.stderr).toMatch(/'abc' is not a checkpoint id/);
    expect((await rewind(['diff'], sb.env, root)).code).toBe(2);
    expect((await rewind(['diff', '1', '../outside'], sb.env, root)).code).toBe(1);
  });

  it('shows exactly what a restore would do: a nested repository it leaves alone is not listed as deleted', async () => {
    const root = sb.repo('nested');
    write(root, 'a.txt', 'a1\n');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    const nested = sb.repo('nested/inner');
    write(nested, 'lib.c', 'int x;\n');
    write(root, 'a.txt', 'a2\n');
    const plan = await rewind(['restore', '1', '--dry-run'], sb.env, root);
    expect(plan.stdout).toMatch(/^\s+left alone\s+inner: inside a nested repository/m);
    expect(plan.stdout).not.toMatch(/delete/);

    const names = await rewind(['diff', '1', '--name-status'], sb.env, root);
    expect(names.code).toBe(0);
    expect(names.stdout).toBe('M\ta.txt\n');
    expect(names.stderr).toMatch(/left alone\s+inner: inside a nested repository/);
    const patch = await rewind(['diff', '1'], sb.env, root);
    expect(patch.stdout).toContain('diff --git a/a.txt b/a.txt\n');
    expect(patch.stdout).not.toContain('inner');
    const restored = await rewind(['restore', '1', '--yes', '--json'], sb.env, root);
    expect(JSON.parse(restored.stdout)).toMatchObject({ changed: ['a.txt'], deleted: [] });
    expect(fs.readFileSync(path.join(nested, 'lib.c'), 'utf8')).toBe('int x;\n');
  });

  it('thousands of paths left alone in thousands of folders (past the argument limit) diff as the restore does', async () => {
    const root = sb.repo('many');
    const folders = Array.from({ length: 2500 }, (_, i) => `folder-with-a-rather-long-name-to-fill-the-argument-list-${i}`);
    for (const folder of folders) write(root, `${folder}/.gitignore`, '*.tmp\n');
    write(root, 'a.txt', 'a1\n');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    // The rules go, so the .tmp files are checkpointed now; checkpoint #1's rules ignore them.
    for (const folder of folders) {
      fs.rmSync(path.join(root, folder, '.gitignore'));
      write(root, `${folder}/x.tmp`, 'scratch\n');
    }
    write(root, 'a.txt', 'a2\n');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    const sharedIndexes = () => fs.readdirSync(sb.open(root).repo.gitDir).filter((name) => name.startsWith('sharedindex.'));
    const shadowBefore = sharedIndexes();
    const names = await rewind(['diff', '1', '--name-status'], sb.env, root);
    expect(names.code, names.stderr).toBe(0);
    // The diff's throwaway index leaves nothing in the shadow repo.
    expect(sharedIndexes()).toEqual(shadowBefore);
    expect(names.stdout.split('\n').filter(Boolean).sort()).toEqual([...folders.map((folder) => `A\t${folder}/.gitignore`), 'M\ta.txt'].sort());
    expect(names.stderr).toMatch(/and 2490 more: ignored by the rules of checkpoint #1/);
    const restored = await rewind(['restore', '1', '--yes', '--json'], sb.env, root);
    expect(JSON.parse(restored.stdout)).toMatchObject({ deleted: [] });
    expect(fs.readdirSync(path.join(root, folders[0] ?? '')).sort()).toEqual(['.gitignore', 'x.tmp']);
  }, 60_000);
});
