// A step whose changed paths are regular files is staged without the shadow index (each
// read of which costs what the whole index holds): hash-object and one fast-import on top of
// the last checkpoint. The index stays behind on those paths until a stage that uses it,
// which takes them in too. Every checkpoint must equal a walk of the whole tree.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, hermeticGitEnv, runGitSync, write, type Sandbox } from '../helpers/tempRepo.js';
import { shadowGit } from '../helpers/shadow.js';
import { gitFirstOnPath } from '../helpers/gitSpy.js';
import type { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-without-index-');
});
afterEach(() => sb.cleanup());

/** A `git` first on PATH that writes down each git command it runs (its subcommand); `take` reads and empties that list. */
function gitThatTells(): { env: NodeJS.ProcessEnv; take: () => string[] } {
  const log = path.join(sb.base, 'git.log');
  const env = gitFirstOnPath(
    sb.base,
    `for arg in "$@"; do
  case "$arg" in -*) ;; *) echo "$arg" >>'${log}'; break ;; esac
done`,
  );
  return {
    env,
    take: () => {
      const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
      fs.rmSync(log, { force: true });
      return lines;
    },
  };
}

/** A project whose a.txt was "one" at its first checkpoint and "two" at the next, staged without the index. */
async function behindOnA(): Promise<{ root: string; engine: CheckpointEngine }> {
  const root = sb.repo('project');
  write(root, 'a.txt', 'one\n');
  const engine = sb.open(root);
  await engine.snapshot({ label: 'first' });
  write(root, 'a.txt', 'two\n');
  await engine.snapshot({ label: 'without the index', paths: ['a.txt'] });
  return { root, engine };
}

/** The tree of the files now, by a walk of the whole tree (which also catches the index up). */
async function walked(engine: CheckpointEngine): Promise<string> {
  return (await engine.currentTree()).tree;
}

function blobAt(engine: CheckpointEngine, commit: string, file: string): string {
  return shadowGit(engine.repo.gitDir, 'show', `${commit}:${file}`);
}

describe('a step staged without the shadow index', () => {
  it('reads no index for regular files edited, made and deleted, and equals a walk of the whole tree', async () => {
    const root = sb.repo('project');
    write(root, 'src/a.txt', 'one\n');
    write(root, 'src/b.txt', 'two\n');
    const spy = gitThatTells();
    const engine = sb.open(root, {}, spy.env);
    await engine.snapshot({ label: 'first' });
    write(root, 'src/a.txt', 'one, edited\n');
    write(root, 'src/new.txt', 'new\n');
    fs.chmodSync(path.join(root, 'src/new.txt'), 0o755);
    fs.rmSync(path.join(root, 'src/b.txt'));
    spy.take();
    const step = (await engine.snapshot({ label: 'step', paths: ['src/a.txt', 'src/new.txt', 'src/b.txt'] })).record;
    const ran = spy.take();
    expect(ran).toContain('fast-import');
    expect(ran.filter((command) => ['add', 'update-index', 'write-tree', 'rm', 'commit-tree'].includes(command))).toEqual([]);
    expect(step.changedPaths).toEqual(['src/a.txt', 'src/b.txt', 'src/new.txt']);
    expect(blobAt(engine, step.commit, 'src/a.txt')).toBe('one, edited\n');
    expect(shadowGit(engine.repo.gitDir, 'ls-tree', step.commit, 'src/new.txt')).toMatch(/^100755 blob /);
    expect(shadowGit(engine.repo.gitDir, 'rev-parse', `${step.commit}^`).trim()).toBe(engine.list()[0]?.commit);
    expect(await walked(engine)).toBe(step.tree);
    expect(shadowGit(engine.repo.gitDir, 'for-each-ref', 'refs/rewind/')).toBe('');
  });

  it('a step told nothing changed adds no checkpoint and runs no git (no commit made for nothing)', async () => {
    const root = sb.repo('project');
    write(root, 'a.txt', 'one\n');
    const spy = gitThatTells();
    const engine = sb.open(root, {}, spy.env);
    const first = (await engine.snapshot({ label: 'first' })).record;
    spy.take();
    const enter = await engine.snapshot({ label: 'enter', paths: [], onlyIfChanged: true });
    expect(spy.take()).toEqual([]);
    expect(enter.unchanged).toBe(true);
    expect(engine.list().map((record) => record.id)).toEqual([first.id]);
    expect(await walked(engine)).toBe(first.tree);
  });

  it('the next stage that uses the index takes in what the index was behind on', async () => {
    const { root, engine } = await behindOnA();
    // A folder made: a stage that uses the index (add on the scope). Staged from its paths
    // alone, write-tree would hold a.txt as the index last had it ("one").
    write(root, 'made/c.txt', 'c\n');
    const step = (await engine.snapshot({ label: 'with the index', paths: ['made'] })).record;
    expect(blobAt(engine, step.commit, 'a.txt')).toBe('two\n');
    expect(blobAt(engine, step.commit, 'made/c.txt')).toBe('c\n');
    expect(await walked(engine)).toBe(step.tree);
  });

  it("a file the project tracks, staged without the index, stays when an ignore rule names it later, as it would have", async () => {
    const root = sb.repo('project');
    const engine = sb.open(root);
    await engine.snapshot({ label: 'first' });
    write(root, 'gen.txt', 'generated\n');
    runGitSync(hermeticGitEnv(sb.base), root, ['add', 'gen.txt']);
    const staged = (await engine.snapshot({ label: 'without the index', paths: ['gen.txt'] })).record;
    expect(blobAt(engine, staged.commit, 'gen.txt')).toBe('generated\n');
    write(root, '.gitignore', 'gen.txt\n');
    const step = (await engine.snapshot({ label: 'ignored now', paths: ['.gitignore'] })).record;
    expect(blobAt(engine, step.commit, 'gen.txt')).toBe('generated\n');
    expect(await walked(engine)).toBe(step.tree);
  });

  it('not after a restore: the files are then as the restore left them, not as the newest checkpoint holds them', async () => {
    const { root, engine } = await behindOnA();
    const first = engine.list()[0];
    if (!first) throw new Error('no first checkpoint');
    await engine.restore(first.id);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    // The app's next step walks the whole tree (files were restored) and adds nothing: the
    // files are as the restore left them.
    expect((await engine.snapshot({ label: 'enter', onlyIfChanged: true })).unchanged).toBe(true);
    // Then a redo's first checkpoint, told that nothing changed since.
    const before = (await engine.snapshot({ label: 'before redo', paths: [] })).record;
    expect(before.tree).toBe(first.tree);
    expect(await walked(engine)).toBe(before.tree);
  });

  it('not right after an import: the newest checkpoint then holds another project\'s files, never staged here', async () => {
    const there = sb.repo('there');
    write(there, 'theirs.txt', 'theirs\n');
    const source = sb.open(there);
    const theirs = (await source.snapshot({ label: 'theirs' })).record;
    const exported = await source.exportRange(theirs.id, theirs.id);
    const { root, engine } = await behindOnA();
    await engine.importCheckpoints(exported.bundle, exported.checkpoints, 'there.rewind');
    expect(engine.list().at(-1)?.imported).toBeDefined();
    write(root, 'a.txt', 'three\n');
    const step = (await engine.snapshot({ label: 'after the import', paths: ['a.txt'] })).record;
    expect(blobAt(engine, step.commit, 'a.txt')).toBe('three\n');
    expect(await walked(engine)).toBe(step.tree);
  });

  it('stores the bytes as add does, whatever .gitattributes says (the shadow converts nothing)', async () => {
    const root = sb.repo('project');
    write(root, '.gitattributes', '*.txt text eol=lf\n');
    write(root, 'a.txt', 'one\n');
    const spy = gitThatTells();
    const engine = sb.open(root, {}, spy.env);
    await engine.snapshot({ label: 'first' });
    write(root, 'a.txt', 'one\r\ntwo\r\n');
    spy.take();
    const step = (await engine.snapshot({ label: 'crlf', paths: ['a.txt'] })).record;
    expect(spy.take()).toContain('fast-import');
    expect(blobAt(engine, step.commit, 'a.txt')).toBe('one\r\ntwo\r\n');
    expect(await walked(engine)).toBe(step.tree);
  });

  it('a list of paths the index is behind on that cannot be read: the next stage that needs the index walks the whole tree', async () => {
    const { root, engine } = await behindOnA();
    fs.writeFileSync(engine.repo.store.indexBehind, 'not json');
    write(root, 'made/c.txt', 'c\n');
    const step = (await engine.snapshot({ label: 'with the index', paths: ['made'] })).record;
    expect(step.fromChangedPaths).toBeUndefined();
    expect(blobAt(engine, step.commit, 'a.txt')).toBe('two\n');
    expect(await walked(engine)).toBe(step.tree);
  });

  it('an unchanged file adds no checkpoint, and a symlink or a file over the size cap is staged with the index', async () => {
    const root = sb.repo('project');
    write(root, 'a.txt', 'one\n');
    const spy = gitThatTells();
    const engine = sb.open(root, { checkpointMaxFileMb: 1 }, spy.env);
    const first = (await engine.snapshot({ label: 'first' })).record;
    write(root, 'a.txt', 'one\n');
    const same = await engine.snapshot({ label: 'same', paths: ['a.txt'], onlyIfChanged: true });
    expect(same.unchanged).toBe(true);
    expect(engine.list().at(-1)?.id).toBe(first.id);
    fs.symlinkSync('a.txt', path.join(root, 'link'));
    spy.take();
    const linked = (await engine.snapshot({ label: 'link', paths: ['link'] })).record;
    expect(spy.take()).not.toContain('fast-import');
    expect(shadowGit(engine.repo.gitDir, 'ls-tree', linked.commit, 'link')).toMatch(/^120000 blob /);
    write(root, 'big.bin', Buffer.alloc(2 * 1024 * 1024, 1));
    const big = (await engine.snapshot({ label: 'big', paths: ['big.bin'] })).record;
    expect(spy.take()).not.toContain('fast-import');
    expect(big.skipped.map((file) => file.path)).toEqual(['big.bin']);
    expect(await walked(engine)).toBe(big.tree);
  });
});
