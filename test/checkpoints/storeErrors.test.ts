// Issue 11 item 14 (the store's half): a store rewind may not write (read-only, another
// user's) or a full disk is one line that says what to do, never "internal error"; a
// snapshot that ran out of room leaves no half-written objects behind, and works once there
// is room again.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asNobody } from '../helpers/asNobody.js';
import { rewind } from '../helpers/io.js';
import { requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-store-errors-');
  fs.chmodSync(sb.base, 0o755);
});
afterEach(() => sb.cleanup());

function oneLine(stderr: string): string {
  expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/internal error/);
  return stderr;
}

describe('a store rewind cannot write', () => {
  it("another user's store: one line naming the owner, for snapshot, restore and list", async () => {
    const root = sb.repo('not-mine');
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    // The project is the user's, the store root's (made by the run above).
    execFileSync('chown', ['-R', '65534:65534', root, sb.home]);
    write(root, 'f.txt', 'edit\n');
    execFileSync('chown', ['65534:65534', path.join(root, 'f.txt')]);
    for (const argv of [['snapshot'], ['restore', '1', '--yes'], ['list']]) {
      const result = asNobody(root, sb.env, argv);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(oneLine(result.stderr)).toMatch(/^rewind: cannot use the checkpoint store .*: permission denied \(it belongs to user id 0, you are 65534\); fix its owner or permissions, or set REWIND_HOME to a folder you own$/m);
    }
    expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('edit\n');
  });

  it('a read-only store of the user: one line', async () => {
    const root = sb.repo('read-only');
    execFileSync('chown', ['-R', '65534:65534', sb.base]);
    expect(asNobody(root, sb.env, ['snapshot']).code).toBe(0);
    execFileSync('chmod', ['-R', 'a-w', sb.store]);
    try {
      write(root, 'f.txt', 'edit\n');
      execFileSync('chown', ['65534:65534', path.join(root, 'f.txt')]);
      const result = asNobody(root, sb.env, ['snapshot']);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toMatch(/cannot use the checkpoint store .*: permission denied; fix its owner or permissions/);
    } finally {
      execFileSync('chmod', ['-R', 'u+w', sb.store]);
    }
  });

  it('a read-only store of the user: list still lists; diff, restore --yes and redo --yes are one line, exit 1, and touch no file', async () => {
    const root = sb.repo('read-only-commands');
    execFileSync('chown', ['-R', '65534:65534', sb.base]);
    const asUser = (...argv: string[]) => asNobody(root, sb.env, argv);
    const edit = (name: string, text: string) => {
      write(root, name, text);
      execFileSync('chown', ['65534:65534', path.join(root, name)]);
    };
    edit('f.txt', 'one\n');
    expect(asUser('snapshot').code).toBe(0);
    edit('f.txt', 'two\n');
    expect(asUser('snapshot').code).toBe(0);
    // A restore to undo: redo has something to do.
    expect(asUser('restore', '1', '--yes').code).toBe(0);
    edit('f.txt', 'three\n');
    edit('g.txt', 'new\n');
    execFileSync('chmod', ['-R', 'a-w', sb.store]);
    try {
      // Reading is enough to list: every row; the newest's step needs the shadow index, so it is unknown.
      const list = asUser('list');
      expect(list.stderr).toBe('');
      expect(list.code).toBe(0);
      expect(list.stdout.trimEnd().split('\n').map((line) => /^#\d+\s+\S+ \S+\s+(\S+)(?: files?)?\s/.exec(line)?.[1])).toEqual(['1', '0', '?']);
      const json = asUser('list', '--json');
      expect(json.code).toBe(0);
      expect((JSON.parse(json.stdout) as { files: number | null }[]).map((row) => row.files)).toEqual([1, 0, null]);
      for (const argv of [['diff', '1'], ['restore', '2', '--yes'], ['redo', '--yes']]) {
        const result = asUser(...argv);
        expect(result.code, argv.join(' ')).toBe(1);
        expect(oneLine(result.stderr), argv.join(' ')).toMatch(/^rewind: cannot use the checkpoint store .*: permission denied; fix its owner or permissions, or set REWIND_HOME to a folder you own$/m);
        expect(result.stdout, argv.join(' ')).toBe('');
      }
      expect(fs.readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('three\n');
      expect(fs.readFileSync(path.join(root, 'g.txt'), 'utf8')).toBe('new\n');
    } finally {
      execFileSync('chmod', ['-R', 'u+w', sb.store]);
    }
  });

  it('a full disk: one line, no objects of the failed attempt left, and the next snapshot works once there is room', () => {
    const cli = requireBuiltCli();
    const root = sb.repo('full');
    const store = path.join(sb.base, 'small-store');
    fs.mkdirSync(store);
    fs.writeFileSync(path.join(root, 'big.bin'), randomBytes(3 * 1024 * 1024));
    // A 2 MB file system for the store, in a mount namespace of its own (nothing leaks out).
    const script = `
      set -u
      mount -t tmpfs -o size=2m tmpfs "$STORE" || exit 99
      node "$CLI" snapshot; echo "exit=$?"
      echo "leftovers=$(find "$STORE" -name 'tmp_*' | wc -l)"
      rm big.bin
      node "$CLI" snapshot; echo "exit=$?"
    `;
    const run = spawnSync('unshare', ['-m', 'sh', '-c', script], {
      cwd: root,
      env: { ...sb.env, REWIND_HOME: store, STORE: store, CLI: cli, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    });
    const lines = run.stdout.toString().trim().split('\n');
    expect(oneLine(run.stderr.toString())).toMatch(/^rewind: cannot use the checkpoint store .*: the disk is full; free some space \(or set REWIND_HOME to another disk\) and try again$/m);
    expect(lines[0]).toBe('exit=1');
    expect(lines[1]).toBe('leftovers=0');
    expect(lines[2]).toMatch(/^checkpoint #1 /);
    expect(lines[3]).toBe('exit=0');
  });
});
