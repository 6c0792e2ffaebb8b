// The index parser reads what git wrote, in every version git writes, exactly as git lists it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasFileNamed, parseIndex as parseIndexFile, type IndexEntry } from '../../src/checkpoints/git/indexFile.js';

/** The parsed entries as plain data (the parser's objects compute their blob id lazily). */
function parseIndex(bytes: Buffer) {
  return parseIndexFile(bytes)?.map((entry: IndexEntry) => ({
    path: entry.path,
    mode: entry.mode,
    oid: entry.oid,
    size: entry.size,
    stage: entry.stage,
    assumeUnchanged: entry.assumeUnchanged,
    skipWorktree: entry.skipWorktree,
  }));
}
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-index-');
});
afterEach(() => sb.cleanup());

/** What git itself says of each entry: `ls-files -s -v` plus the size from `--debug`. */
function gitView(root: string) {
  const listed = sb.git(root, 'ls-files', '-s', '-v', '-z').split('\0').filter(Boolean);
  const debug = sb.git(root, 'ls-files', '--debug', '-z');
  const sizes = [...debug.matchAll(/size: (\d+)/g)].map((match) => Number(match[1]));
  return listed.map((line, index) => {
    const tab = line.indexOf('\t');
    const [tag = '', mode = '', oid = '', stage = ''] = line.slice(0, tab).split(' ');
    return {
      path: line.slice(tab + 1),
      mode: parseInt(mode, 8),
      oid,
      size: sizes[index],
      stage: Number(stage),
      assumeUnchanged: /^[a-z]/.test(tag),
      skipWorktree: tag === 'S',
    };
  });
}

function project(): string {
  const root = sb.repo('index');
  write(root, 'plain.txt', 'plain\n');
  write(root, 'exec.sh', '#!/bin/sh\n', 0o755);
  write(root, 'deep/er/and/deeper/file.md', 'deep\n');
  write(root, 'unicode é 日本.txt', 'unicode\n');
  write(root, `${'n'.repeat(200)}.txt`, 'long name\n');
  write(root, 'empty', '');
  fs.symlinkSync('plain.txt', path.join(root, 'link'));
  write(root, 'same/prefix/a.txt', 'a\n');
  write(root, 'same/prefix/b.txt', 'bb\n');
  sb.git(root, 'add', '-A');
  sb.git(root, 'commit', '-q', '-m', 'files');
  sb.git(root, 'update-index', '--assume-unchanged', 'plain.txt');
  sb.git(root, 'update-index', '--skip-worktree', 'exec.sh');
  return root;
}

describe('parseIndex', () => {
  for (const version of [2, 3, 4]) {
    it(`reads a version ${version} index as git lists it (paths, modes, blobs, sizes, marks)`, () => {
      const root = project();
      sb.git(root, 'update-index', '--index-version', String(version));
      const parsed = parseIndex(fs.readFileSync(path.join(root, '.git', 'index')));
      expect(parsed).toEqual(gitView(root));
      expect(parsed?.find((entry) => entry.path === 'exec.sh')?.skipWorktree).toBe(true);
      expect(parsed?.find((entry) => entry.path === 'plain.txt')?.assumeUnchanged).toBe(true);
    });
  }

  it('reads conflict stages of a merge in progress', () => {
    const root = sb.repo('conflict');
    write(root, 'c.txt', 'base\n');
    sb.git(root, 'commit', '-qam', 'base', '--allow-empty');
    sb.git(root, 'add', 'c.txt');
    sb.git(root, 'commit', '-qm', 'c');
    sb.git(root, 'checkout', '-qb', 'other');
    write(root, 'c.txt', 'other\n');
    sb.git(root, 'commit', '-qam', 'other');
    sb.git(root, 'checkout', '-q', 'main');
    write(root, 'c.txt', 'main\n');
    sb.git(root, 'commit', '-qam', 'main');
    expect(() => sb.git(root, 'merge', '-q', 'other')).toThrow();
    const parsed = parseIndex(fs.readFileSync(path.join(root, '.git', 'index')));
    expect(parsed?.filter((entry) => entry.path === 'c.txt').map((entry) => entry.stage)).toEqual([1, 2, 3]);
    expect(parsed).toEqual(gitView(root));
  });

  for (const version of [2, 4]) {
    it(`reads a version ${version} path longer than the 4,095 bytes its length field holds`, () => {
      const root = project();
      const blob = sb.gitBytes(root, ['hash-object', '-w', '--stdin'], 'long\n').toString().trim();
      const long = `${Array.from({ length: 20 }, (_, i) => `${i}${'d'.repeat(240)}`).join('/')}/file.txt`;
      sb.git(root, 'update-index', '--add', '--cacheinfo', `100644,${blob},${long}`);
      sb.git(root, 'update-index', '--index-version', String(version));
      const parsed = parseIndex(fs.readFileSync(path.join(root, '.git', 'index')));
      expect(parsed?.some((entry) => entry.path === long)).toBe(true);
      expect(parsed).toEqual(gitView(root));
    });
  }

  for (const version of [2, 4]) {
    it(`finds a file by its name in a version ${version} index without being fooled by similar names`, () => {
      const root = project();
      write(root, 'x.gitattributes', 'not attributes\n');
      write(root, 'sub/.gitattribute', 'not attributes either\n');
      write(root, 'sub/a.gitattributes', 'nor this\n');
      sb.git(root, 'add', '-A');
      sb.git(root, 'update-index', '--index-version', String(version));
      const index = path.join(root, '.git', 'index');
      expect(hasFileNamed(parseIndexFile(fs.readFileSync(index)) ?? [], '.gitattributes')).toBe(false);
      write(root, 'sub/.gitattributes', '*.bin binary\n');
      sb.git(root, 'add', '-A');
      expect(hasFileNamed(parseIndexFile(fs.readFileSync(index)) ?? [], '.gitattributes')).toBe(true);
      sb.git(root, 'rm', '-q', '--cached', 'sub/.gitattributes');
      write(root, '.gitattributes', '*.bin binary\n');
      sb.git(root, 'add', '.gitattributes');
      expect(hasFileNamed(parseIndexFile(fs.readFileSync(index)) ?? [], '.gitattributes')).toBe(true);
    });
  }

  it('declines a split index (the entries are elsewhere) and garbage', () => {
    const root = project();
    sb.git(root, 'update-index', '--split-index');
    expect(parseIndex(fs.readFileSync(path.join(root, '.git', 'index')))).toBeUndefined();
    expect(parseIndex(Buffer.from('not an index at all'))).toBeUndefined();
  });
});
