// Issue 11 item 13: git not on PATH is one line that says what to do, for a new project and
// for one with checkpoints alike, on every command (never "internal error").
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-no-git-');
});
afterEach(() => sb.cleanup());

const missing = 'rewind: git was not found on PATH: install git (checkpoints need git 2.25 or newer)\n';

describe('git missing', () => {
  it('is the same one line for a new project and for every command on an existing store', async () => {
    const root = sb.repo('has-store');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    write(root, 'f.txt', 'edit\n');
    // A PATH with sh and the usual tools, but no git.
    const bin = path.join(sb.base, 'bin-without-git');
    fs.mkdirSync(bin);
    for (const tool of ['sh', 'env', 'cat', 'mv', 'rm']) {
      for (const dir of ['/bin', '/usr/bin']) {
        if (fs.existsSync(path.join(dir, tool))) {
          fs.symlinkSync(path.join(dir, tool), path.join(bin, tool));
          break;
        }
      }
    }
    const env = { ...sb.env, PATH: bin };
    const fresh = sb.folder('fresh');
    expect(await rewind(['snapshot'], env, fresh)).toEqual({ code: 1, stdout: '', stderr: missing });
    for (const argv of [['snapshot'], ['list'], ['diff', '1'], ['restore', '1', '--dry-run'], ['restore', '1', '--yes'], ['redo']]) {
      expect(await rewind(argv, env, root), argv.join(' ')).toEqual({ code: 1, stdout: '', stderr: missing });
    }
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('edit\n');
    // The engine, called without the command's check (a PATH that lost git since): the same words.
    await expect(sb.open(root, {}, { PATH: bin }).snapshot()).rejects.toThrow(missing.replace(/^rewind: /, '').trim());
    await expect(sb.open(root, {}, { PATH: bin }).snapshot()).rejects.toMatchObject({ name: 'UserError' });
  });
});
