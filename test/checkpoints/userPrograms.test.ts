// Issue 11 item 12: no program of the user's runs from a Rewind git call: not the project's
// (or their global) core.fsmonitor hook, not their git hooks, not a filter, in snapshots
// (the first one too), listing, diff, restore and redo.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-user-programs-');
});
afterEach(() => sb.cleanup());

describe("the user's programs", () => {
  it('never run: fsmonitor (project and global config), hooks, filters', async () => {
    const root = sb.repo('programs');
    const ran = path.join(sb.base, 'ran');
    const program = (name: string) => {
      const file = path.join(sb.base, `${name}.sh`);
      fs.writeFileSync(file, `#!/bin/sh\necho ${name} >> '${ran}'\ncat >/dev/null\nexit 1\n`, { mode: 0o755 });
      return file;
    };
    sb.git(root, 'config', 'core.fsmonitor', program('fsmonitor'));
    sb.git(root, 'config', 'filter.leak.clean', program('clean'));
    sb.git(root, 'config', 'filter.leak.smudge', program('smudge'));
    fs.writeFileSync(path.join(sb.home, '.gitconfig'), `[core]\n\tfsmonitor = ${program('global-fsmonitor')}\n`);
    for (const hook of ['post-index-change', 'pre-commit', 'post-commit', 'reference-transaction', 'post-checkout']) {
      fs.copyFileSync(program(hook), path.join(root, '.git', 'hooks', hook));
      fs.chmodSync(path.join(root, '.git', 'hooks', hook), 0o755);
    }
    write(root, '.gitattributes', '*.dat filter=leak\n');
    write(root, 'a.dat', 'data\n');
    sb.git(root, 'add', '-A');
    fs.rmSync(ran, { force: true });

    const run = async (...argv: string[]) => {
      const result = await rewind(argv, sb.env, root);
      expect(result.stderr, argv.join(' ')).toBe('');
      expect(result.code, argv.join(' ')).toBe(0);
    };
    await run('snapshot', '--label', 'first');
    write(root, 'a.dat', 'changed\n');
    write(root, 'b.txt', 'new\n');
    await run('snapshot', '--label', 'second');
    await run('list');
    await run('diff', '1');
    await run('restore', '1', '--yes');
    await run('redo', '--yes');
    expect(fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8') : '').toBe('');
  });
});
