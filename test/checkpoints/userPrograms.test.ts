// Issue 11 item 12: no program of the user's runs from a Rewind git call: not the project's
// (or their global) core.fsmonitor hook, not their git hooks, not a filter, in snapshots
// (the first one too), listing, diff, restore, redo and fork --branch; nor a nested repository's or a
// submodule's own (git asks those for their status when it stages a gitlink).
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

function recorder(): { ran: string; program: (name: string) => string; record: () => string } {
  const ran = path.join(sb.base, 'ran');
  const program = (name: string) => {
    const file = path.join(sb.base, `${name}.sh`);
    fs.writeFileSync(file, `#!/bin/sh\necho ${name} >> '${ran}'\ncat >/dev/null\nexit 1\n`, { mode: 0o755 });
    return file;
  };
  return { ran, program, record: () => (fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8') : '') };
}

/** A nested repository at `dir` whose own config names programs: fsmonitor, hooks, a clean filter. */
function armedNestedRepo(dir: string, program: (name: string) => string): void {
  fs.mkdirSync(dir, { recursive: true });
  sb.git(dir, 'init', '-q', '-b', 'main');
  write(dir, '.gitattributes', '*.dat filter=nestedleak\n');
  write(dir, 'n.dat', 'nested data\n');
  sb.git(dir, 'add', '-A');
  sb.git(dir, 'commit', '-q', '-m', 'nested');
  sb.git(dir, 'config', 'core.fsmonitor', program('nested-fsmonitor'));
  sb.git(dir, 'config', 'filter.nestedleak.clean', program('nested-clean'));
  sb.git(dir, 'config', 'filter.nestedleak.smudge', program('nested-smudge'));
  for (const hook of ['post-index-change', 'pre-commit', 'post-commit', 'reference-transaction', 'post-checkout']) {
    fs.copyFileSync(program(`nested-${hook}`), path.join(dir, '.git', 'hooks', hook));
    fs.chmodSync(path.join(dir, '.git', 'hooks', hook), 0o755);
  }
}

/** Its file touched (same bytes, new mtime): a status inside it would have to run the clean filter. */
function touchNested(dir: string, seconds: number): void {
  const when = new Date(Date.now() - seconds * 1000);
  fs.utimesSync(path.join(dir, 'n.dat'), when, when);
}

describe("the user's programs", () => {
  it('never run: fsmonitor (project and global config), hooks, filters', async () => {
    const root = sb.repo('programs');
    const { ran, program } = recorder();
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
    await run('show', '1', '--json');
    // Issue 29: a branch and a linked worktree made in the user's repository.
    await run('fork', '2', '--branch', 'kept');
    expect(fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8') : '').toBe('');
  });

  it.each([
    ['a nested repository in a git project', 'git'],
    ['a nested repository in a plain folder', 'plain'],
    ['a submodule', 'submodule'],
  ])("never run from %s: its fsmonitor, hooks, clean filter", async (_name, shape) => {
    const { program, record } = recorder();
    const root = shape === 'plain' ? sb.folder('outer') : sb.repo('outer');
    write(root, 'app.txt', 'app\n');
    const nested = path.join(root, 'sub');
    if (shape === 'submodule') {
      const origin = path.join(sb.base, 'origin');
      armedNestedRepo(origin, program);
      sb.git(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'sub');
      sb.git(root, 'commit', '-q', '-m', 'submodule');
      const gitDir = sb.git(nested, 'rev-parse', '--absolute-git-dir').trim();
      sb.git(nested, 'config', 'core.fsmonitor', program('nested-fsmonitor'));
      sb.git(nested, 'config', 'filter.nestedleak.clean', program('nested-clean'));
      sb.git(nested, 'config', 'filter.nestedleak.smudge', program('nested-smudge'));
      fs.mkdirSync(path.join(gitDir, 'hooks'), { recursive: true });
      for (const hook of ['post-index-change', 'reference-transaction']) {
        fs.copyFileSync(program(`nested-${hook}`), path.join(gitDir, 'hooks', hook));
      }
    } else {
      armedNestedRepo(nested, program);
    }
    const head = sb.git(nested, 'rev-parse', 'HEAD').trim();
    fs.rmSync(path.join(sb.base, 'ran'), { force: true });

    const run = async (...argv: string[]) => {
      const result = await rewind(argv, sb.env, root);
      expect(result.stderr, argv.join(' ')).toBe('');
      expect(result.code, argv.join(' ')).toBe(0);
      expect(record(), argv.join(' ')).toBe('');
    };
    touchNested(nested, 300);
    await run('snapshot', '--label', 'first');
    touchNested(nested, 200);
    write(root, 'app.txt', 'app, edited\n');
    await run('snapshot', '--label', 'second');
    touchNested(nested, 100);
    await run('list');
    await run('diff', '1');
    await run('restore', '1', '--yes');
    touchNested(nested, 50);
    await run('redo', '--yes');
    if (shape !== 'plain') await run('fork', '2', '--branch', 'kept', '--json');
    // Still recorded exactly: the nested repository is its HEAD, and left as it was.
    expect(sb.git(nested, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(fs.readFileSync(path.join(nested, 'n.dat'), 'utf8')).toBe('nested data\n');
    expect(fs.readFileSync(path.join(root, 'app.txt'), 'utf8')).toBe('app, edited\n');
    const shadow = path.join(sb.store, 'history', fs.readdirSync(path.join(sb.store, 'history'))[0] ?? '', 'repo.git');
    const gitlink = (ref: string) => sb.git(root, `--git-dir=${shadow}`, 'ls-tree', ref, 'sub');
    expect(gitlink('refs/checkpoints/1')).toBe(`160000 commit ${head}\tsub\n`);
    // A new commit in it is recorded (its HEAD read, nothing of it run).
    const quiet = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];
    const next = sb.git(nested, ...quiet, 'commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'next').trim();
    sb.git(nested, ...quiet, 'update-ref', 'HEAD', next);
    fs.rmSync(path.join(sb.base, 'ran'), { force: true });
    touchNested(nested, 25);
    await run('snapshot', '--label', 'nested moved');
    const newest = (await rewind(['list', '--json'], sb.env, root)).stdout;
    const id = Math.max(...(JSON.parse(newest) as { id: number }[]).map((row) => row.id));
    expect(gitlink(`refs/checkpoints/${id}`)).toBe(`160000 commit ${next}\tsub\n`);
  });
});
