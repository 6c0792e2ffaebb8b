// A checkpoint holds exactly the bytes, modes and names of the work tree.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actualTree, expectedTree, fileInTree, readTree } from '../helpers/shadow.js';
import { age, createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-contents-');
});
afterEach(() => sb.cleanup());

const binary = Buffer.from([0x00, 0xff, 0x00, 0x01, 0xfe, 0x0a, 0x0d, 0x00, 0x80, 0xff, 0xff, 0x7f, 0x00]);
const deepPath = `${Array.from({ length: 30 }, (_, i) => `level${i}`).join('/')}/leaf.txt`;
const longName = `${'n'.repeat(196)}.txt`;

/** Writes every awkward kind of file into `root`. */
function writeAwkwardFiles(root: string): void {
  write(root, 'data.bin', binary);
  write(root, 'target.txt', 'the target\n');
  fs.symlinkSync('target.txt', path.join(root, 'link'));
  fs.symlinkSync('../does/not exist', path.join(root, 'dangling'));
  write(root, 'run.sh', '#!/bin/sh\necho hi\n', 0o755);
  write(root, 'plain.sh', '#!/bin/sh\necho not executable\n', 0o644);
  write(root, 'empty', '');
  write(root, 'café é.txt', 'unicode\n');
  write(root, '日本/語.txt', 'japanese\n');
  write(root, 'with  spaces .txt', 'spaces\n');
  write(root, '-rf', 'leading dash\n');
  write(root, 'new\nline.txt', 'a newline in the name\n');
  write(root, longName, 'long name\n');
  write(root, deepPath, 'thirty levels down\n');
  write(root, '.hidden', 'hidden\n');
  write(root, '.config/settings.json', '{}\n');
}

function checkAwkward(shadow: string, tree: string): void {
  const entries = readTree(shadow, tree);
  expect(longName).toHaveLength(200);
  expect(fileInTree(shadow, tree, 'data.bin')).toEqual({ mode: '100644', bytes: binary });
  expect(fileInTree(shadow, tree, 'link')).toEqual({ mode: '120000', bytes: Buffer.from('target.txt') });
  expect(fileInTree(shadow, tree, 'dangling')).toEqual({ mode: '120000', bytes: Buffer.from('../does/not exist') });
  expect(entries.get('run.sh')?.mode).toBe('100755');
  expect(entries.get('plain.sh')?.mode).toBe('100644');
  expect(fileInTree(shadow, tree, 'empty')).toEqual({ mode: '100644', bytes: Buffer.alloc(0) });
  for (const [file, text] of [
    ['café é.txt', 'unicode\n'],
    ['日本/語.txt', 'japanese\n'],
    ['with  spaces .txt', 'spaces\n'],
    ['-rf', 'leading dash\n'],
    ['new\nline.txt', 'a newline in the name\n'],
    [longName, 'long name\n'],
    [deepPath, 'thirty levels down\n'],
    ['.hidden', 'hidden\n'],
    ['.config/settings.json', '{}\n'],
  ] as const) {
    expect(fileInTree(shadow, tree, file)?.bytes.toString('utf8'), file).toBe(text);
  }
  expect([...entries.keys()].some((file) => file === '.git' || file.startsWith('.git/'))).toBe(false);
}

describe('snapshot contents are exact', () => {
  it.each([
    ['in a git project, the files untracked', true],
    ['in a plain folder', false],
  ])('binary, symlinks, modes, empty, awkward names, deep and hidden files %s', async (_name, isGit) => {
    const root = isGit ? sb.repo('awkward') : sb.folder('awkward');
    writeAwkwardFiles(root);
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: 'awkward' });
    const shadow = checkpoints.repo.gitDir;
    checkAwkward(shadow, record.tree);
    expect(actualTree(shadow, record.tree)).toEqual(expectedTree(root));
    expect(record.skipped).toEqual([]);

    // Mode flips and symlink retargets are changes of their own.
    fs.chmodSync(path.join(root, 'run.sh'), 0o644);
    fs.chmodSync(path.join(root, 'plain.sh'), 0o755);
    fs.rmSync(path.join(root, 'link'));
    fs.symlinkSync('日本/語.txt', path.join(root, 'link'));
    const second = await checkpoints.snapshot({ label: 'modes' });
    expect(second.record.deduped).toBe(false);
    expect(actualTree(shadow, second.record.tree)).toEqual(expectedTree(root));
    expect(readTree(shadow, second.record.tree).get('run.sh')?.mode).toBe('100644');
    expect(readTree(shadow, second.record.tree).get('plain.sh')?.mode).toBe('100755');
    expect(fileInTree(shadow, second.record.tree, 'link')?.bytes.toString('utf8')).toBe('日本/語.txt');
  });

  it('the same awkward files, committed in the project, are exact too', async () => {
    const root = sb.repo('awkward-committed');
    writeAwkwardFiles(root);
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'awkward');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: 'awkward' });
    checkAwkward(checkpoints.repo.gitDir, record.tree);
    expect(actualTree(checkpoints.repo.gitDir, record.tree)).toEqual(expectedTree(root));
  });

  it('works in a project whose path has spaces, quotes, $, # and unicode', async () => {
    const root = sb.repo(`my "odd" $HOME #1 proj'é 日本`);
    write(root, 'a.txt', 'a\n');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot();
    expect(actualTree(checkpoints.repo.gitDir, record.tree)).toEqual(expectedTree(root));
    write(root, 'a.txt', 'a, edited\n');
    const second = await checkpoints.snapshot();
    expect(second.record).toMatchObject({ deduped: false, changedSincePrevious: 1 });
    expect(actualTree(checkpoints.repo.gitDir, second.record.tree)).toEqual(expectedTree(root));
  });

  it('files the project marks assume-unchanged or skip-worktree are stored as the work tree has them', async () => {
    const root = sb.repo('marked');
    write(root, 'assumed.txt', 'committed\n');
    write(root, 'skipped.txt', 'committed\n');
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'marked files');
    sb.git(root, 'update-index', '--assume-unchanged', 'assumed.txt');
    sb.git(root, 'update-index', '--skip-worktree', 'skipped.txt');
    write(root, 'assumed.txt', 'changed in the work tree\n');
    write(root, 'skipped.txt', 'changed too\n');
    expect(sb.git(root, 'status', '--porcelain')).toBe('');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot();
    expect(fileInTree(checkpoints.repo.gitDir, record.tree, 'assumed.txt')?.bytes.toString()).toBe('changed in the work tree\n');
    expect(fileInTree(checkpoints.repo.gitDir, record.tree, 'skipped.txt')?.bytes.toString()).toBe('changed too\n');
    expect(actualTree(checkpoints.repo.gitDir, record.tree)).toEqual(expectedTree(root));
  });

  it('stores work-tree bytes in a `* text=auto eol=crlf` project: no line-ending conversion', async () => {
    const root = sb.repo('crlf');
    write(root, '.gitattributes', '* text=auto eol=crlf\n');
    write(root, 'committed-crlf.txt', 'one\r\ntwo\r\n');
    write(root, 'committed-lf.txt', 'one\ntwo\n');
    write(root, 'committed-mixed.txt', 'one\r\ntwo\nthree\r\n');
    // Old mtimes, so the project's index holds these entries as clean (not racily clean),
    // as it would for files committed a while ago.
    for (const file of ['.gitattributes', 'committed-crlf.txt', 'committed-lf.txt', 'committed-mixed.txt']) age(root, file);
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'line endings');
    // The project's blob for the CRLF file is normalised to LF: the work tree is not.
    expect(sb.git(root, 'cat-file', 'blob', 'HEAD:committed-crlf.txt')).toBe('one\ntwo\n');
    write(root, 'untracked-crlf.txt', 'a\r\nb\r\n');
    write(root, 'untracked-lf.txt', 'a\nb\n');

    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: 'crlf' });
    const shadow = checkpoints.repo.gitDir;
    for (const file of ['committed-crlf.txt', 'committed-lf.txt', 'committed-mixed.txt', 'untracked-crlf.txt', 'untracked-lf.txt']) {
      expect(fileInTree(shadow, record.tree, file)?.bytes.toString('latin1'), file).toBe(fs.readFileSync(path.join(root, file), 'latin1'));
    }
    expect(actualTree(shadow, record.tree)).toEqual(expectedTree(root));
  });

  it('stores work-tree bytes in a project with core.autocrlf=true in its own config', async () => {
    const root = sb.repo('autocrlf');
    sb.git(root, 'config', 'core.autocrlf', 'true');
    write(root, 'windows.txt', 'line one\r\nline two\r\n');
    age(root, 'windows.txt');
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'crlf');
    expect(sb.git(root, 'cat-file', 'blob', 'HEAD:windows.txt')).toBe('line one\nline two\n');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot();
    expect(fileInTree(checkpoints.repo.gitDir, record.tree, 'windows.txt')?.bytes.toString('latin1')).toBe('line one\r\nline two\r\n');
  });

  it('stores raw bytes for `filter=lfs` files, committed or not (no clean filter runs)', async () => {
    const root = sb.repo('lfs');
    write(root, '.gitattributes', '*.bin filter=lfs diff=lfs merge=lfs -text\n');
    // A stand-in for git-lfs in the project's own config: its clean filter turns content
    // into a pointer, as git-lfs does.
    sb.git(root, 'config', 'filter.lfs.clean', 'sed s/^/POINTER:/');
    sb.git(root, 'config', 'filter.lfs.smudge', 'cat');
    sb.git(root, 'config', 'filter.lfs.required', 'true');
    write(root, 'weights.bin', 'raw model bytes\n');
    for (const file of ['.gitattributes', 'weights.bin']) age(root, file);
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'lfs');
    expect(sb.git(root, 'cat-file', 'blob', 'HEAD:weights.bin')).toBe('POINTER:raw model bytes\n');
    write(root, 'fresh.bin', 'untracked raw bytes\n');

    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot({ label: 'lfs' });
    const shadow = checkpoints.repo.gitDir;
    expect(fileInTree(shadow, record.tree, 'fresh.bin')?.bytes.toString()).toBe('untracked raw bytes\n');
    expect(fileInTree(shadow, record.tree, 'weights.bin')?.bytes.toString()).toBe('raw model bytes\n');
    expect(actualTree(shadow, record.tree)).toEqual(expectedTree(root));
  });
});
