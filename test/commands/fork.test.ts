// `rewind fork <id>`: a checkpoint's files, exactly, in a new folder; never over anything.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-fork-');
});
afterEach(() => sb.cleanup());

/** The fingerprint of a project's files without .git and what it ignores. */
function filesOf(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(fingerprint(root)).filter(([rel]) => !/^(\.git|ignored)(\/|$)/.test(rel)));
}

/** A project whose checkpoint #1 holds every kind of entry, then edited. */
async function project(): Promise<{ root: string; atOne: Record<string, string> }> {
  const root = sb.repo('proj');
  write(root, '.gitignore', 'ignored/\n');
  write(root, 'ignored/big.bin', 'not in checkpoints\n');
  write(root, 'bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  write(root, 'data.bin', Buffer.from([0, 1, 2, 255, 0]));
  write(root, 'empty.txt', '');
  write(root, 'dir with space/café ü.txt', 'unicode\n');
  write(root, '-leading-dash', 'dash\n');
  fs.symlinkSync('bin/run.sh', path.join(root, 'link-to-run'));
  fs.symlinkSync('../outside/nowhere', path.join(root, 'dangling'));
  expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
  const atOne = filesOf(root);
  write(root, 'bin/run.sh', '#!/bin/sh\necho changed\n', 0o644);
  fs.rmSync(path.join(root, 'data.bin'));
  write(root, 'new.txt', 'after\n');
  expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
  return { root, atOne };
}

describe('rewind fork', () => {
  it('writes the checkpoint exactly (modes, symlinks, bytes) next to the project, touching nothing else', async () => {
    const { root, atOne } = await project();
    const before = fingerprint(root);
    const result = await rewind(['fork', '1'], sb.env, root);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const dir = `${root}-checkpoint-1`;
    expect(result.stdout).toContain(`Checkpoint #1's files are in ${dir}\n`);
    expect(filesOf(dir)).toEqual(atOne);
    expect(fs.existsSync(path.join(dir, '.git'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'ignored'))).toBe(false);
    expect(fingerprint(root)).toEqual(before);
    // No temporary sibling and no scratch folder are left.
    expect(fs.readdirSync(path.dirname(root)).sort()).toEqual(['proj', 'proj-checkpoint-1']);
    const stores = fs.readdirSync(path.join(sb.store, 'history'));
    for (const store of stores) expect(fs.readdirSync(path.join(sb.store, 'history', store)).filter((name) => name.startsWith('scratch-'))).toEqual([]);
  });

  it('--dir names the folder (relative to where it runs); --json says where', async () => {
    const { root } = await project();
    const result = await rewind(['fork', '2', '--dir', '../elsewhere', '--json'], sb.env, root);
    expect(result.code).toBe(0);
    const dir = path.join(path.dirname(root), 'elsewhere');
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 2, dir });
    expect(filesOf(dir)).toEqual(filesOf(root));
  });

  it('refuses a folder that exists, even empty, and one inside the project; leaves them as they were', async () => {
    const { root } = await project();
    const existing = sb.folder('taken');
    const emptyBefore = fs.readdirSync(existing);
    for (const dir of [existing, path.join(root, 'sub')]) {
      const result = await rewind(['fork', '1', '--dir', dir], sb.env, root);
      expect(result.code).toBe(1);
      expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
    expect((await rewind(['fork', '1', '--dir', existing], sb.env, root)).stderr).toBe(`rewind: ${existing} already exists: fork never writes into an existing folder; name a new one with --dir DIR\n`);
    expect((await rewind(['fork', '1', '--dir', path.join(root, 'sub')], sb.env, root)).stderr).toMatch(/is inside the project: fork into a folder outside it/);
    expect(fs.readdirSync(existing)).toEqual(emptyBefore);
    expect(fs.existsSync(path.join(root, 'sub'))).toBe(false);
    // A file of that name counts as well.
    const file = path.join(sb.base, 'file');
    fs.writeFileSync(file, 'mine');
    expect((await rewind(['fork', '1', '--dir', file], sb.env, root)).code).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('mine');
    // Twice the default: the second refuses.
    expect((await rewind(['fork', '1'], sb.env, root)).code).toBe(0);
    expect((await rewind(['fork', '1'], sb.env, root)).stderr).toMatch(/already exists/);
  });

  it('bad input: unknown id, no id, a parent that does not exist', async () => {
    const { root } = await project();
    expect(await rewind(['fork', '9'], sb.env, root)).toMatchObject({ code: 1, stderr: 'rewind: there is no checkpoint #9 in this project: `rewind list` shows them\n' });
    expect((await rewind(['fork'], sb.env, root)).code).toBe(2);
    const missing = await rewind(['fork', '1', '--dir', path.join(sb.base, 'no', 'such')], sb.env, root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no does not exist: create it first/);
  });

  it('refuses the project (and the store) reached through a symlink, and creates nothing in them', async () => {
    const { root } = await project();
    const before = fingerprint(root);
    const link = path.join(sb.base, 'pl');
    fs.symlinkSync(root, link);
    // A symlink to the project, the folder named below it; and one deeper, to a folder of the project.
    fs.symlinkSync(path.join(root, 'bin'), path.join(sb.base, 'to-bin'));
    for (const [dir, real] of [
      [path.join(link, 'inside'), path.join(root, 'inside')],
      [path.join(link, 'a', 'b'), path.join(root, 'a', 'b')],
      [path.join(sb.base, 'to-bin', 'x'), path.join(root, 'bin', 'x')],
      [link, root],
    ] as const) {
      const result = await rewind(['fork', '1', '--dir', dir], sb.env, root);
      expect(result.code, dir).toBe(1);
      expect(result.stderr, dir).toBe(`rewind: ${dir} is inside the project (through a symlink: it is ${real}): fork into a folder outside it (--dir DIR)\n`);
    }
    expect(fingerprint(root)).toEqual(before);
    // Relative, from inside the project, as in the report: `--dir ../pl/inside`.
    const relative = await rewind(['fork', '1', '--dir', '../../../pl/inside'], sb.env, path.join(root, 'bin'));
    expect(relative.stderr).toMatch(/^rewind: .*\/pl\/inside is inside the project \(through a symlink/);
    expect(fs.existsSync(path.join(root, 'inside'))).toBe(false);
    // The store, directly and through a symlink.
    const [store] = fs.readdirSync(path.join(sb.store, 'history'));
    const storeLink = path.join(sb.base, 'sl');
    fs.symlinkSync(path.join(sb.store, 'history', store ?? ''), storeLink);
    const inStore = await rewind(['fork', '1', '--dir', path.join(storeLink, 'repo.git', 'x')], sb.env, root);
    expect(inStore.stderr).toMatch(/is inside the checkpoint store \(through a symlink: it is .*\/repo\.git\/x\): fork into a folder outside it/);
    expect(fs.existsSync(path.join(sb.store, 'history', store ?? '', 'repo.git', 'x'))).toBe(false);
    // A symlink to a folder outside the project is fine: the fork is made there.
    const outside = sb.folder('outside');
    fs.symlinkSync(outside, path.join(sb.base, 'ol'));
    expect((await rewind(['fork', '1', '--dir', path.join(sb.base, 'ol', 'try')], sb.env, root)).code).toBe(0);
    expect(fs.existsSync(path.join(outside, 'try', 'empty.txt'))).toBe(true);
    // A file on the way is one line too.
    fs.writeFileSync(path.join(sb.base, 'file'), 'mine');
    expect((await rewind(['fork', '1', '--dir', path.join(sb.base, 'file', 'x')], sb.env, root)).stderr).toBe(`rewind: ${path.join(sb.base, 'file')} is not a folder: name another folder with --dir DIR\n`);
  });
});
