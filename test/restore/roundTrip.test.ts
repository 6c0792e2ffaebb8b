// Restore puts every kind of entry back exactly, touches only what differs, never writes
// outside the project, and leaves ignored and oversize files alone. Real git, real files,
// through the CLI dispatch (`rewind restore <id> --yes --json`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { expectedChange, projectState, restoreJson, snapshotId, stamps, withoutFolders } from '../helpers/restoreKit.js';
import { age, createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-trip-');
});
afterEach(async () => {
  await sb.cleanup();
});

const snap = (root: string, label?: string) => snapshotId(rewind, sb.env, root, label);
const restore = (root: string, id: number, extra: string[] = []) => restoreJson(rewind, sb.env, root, id, extra);

async function redo(root: string): Promise<void> {
  const result = await rewind(['redo', '--yes'], sb.env, root);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/** Bytes no text tool would keep: NUL, 0xff, lone CR, invalid UTF-8. */
function binary(seed: number, length = 4096): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x >> 16;
  }
  bytes.set([0, 255, 13, 0, 0xc3, 0x28, 10], 0);
  return bytes;
}

describe('restore round trip', () => {
  it('binaries, symlinks (dangling too), exec bits, empty files, odd names, deep trees and file<->folder changes come back exactly, both ways', async () => {
    const root = sb.repo('rich');
    write(root, 'bin/blob.bin', binary(1));
    write(root, 'bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
    write(root, 'empty.txt', '');
    write(root, 'ünïcödé 文件.txt', 'unicode\n');
    write(root, 'with space.txt', 'space\n');
    write(root, '-leading-dash.txt', 'dash\n');
    write(root, '--', 'a file called --\n');
    write(root, 'new\nline.txt', 'a newline in the name\n');
    write(root, 'tab\tand "quotes".txt', 'tab\n');
    write(root, 'a/b/c/d/e/f/g/h/i/j/deep.txt', 'deep\n');
    write(root, 'a/b/side.txt', 'side\n');
    write(root, 'crlf.txt', 'one\r\ntwo\r\n');
    write(root, 'flip', 'flip is a file at the checkpoint\n');
    write(root, 'flop/inner.txt', 'flop is a folder at the checkpoint\n');
    write(root, 'flop/deeper/more.txt', 'more\n');
    fs.symlinkSync('bin/run.sh', path.join(root, 'link-to-file'));
    fs.symlinkSync('does/not/exist', path.join(root, 'dangling'));
    fs.symlinkSync('a/b', path.join(root, 'link-to-dir'));
    fs.symlinkSync('/nonexistent/absolute target', path.join(root, 'dangling-absolute'));
    const stateA = projectState(root);
    const id = await snap(root, 'A');

    // The agent changes everything.
    write(root, 'bin/blob.bin', binary(2, 3000));
    fs.chmodSync(path.join(root, 'bin/run.sh'), 0o644);
    write(root, 'empty.txt', 'not empty any more\n');
    fs.rmSync(path.join(root, 'ünïcödé 文件.txt'));
    fs.renameSync(path.join(root, 'with space.txt'), path.join(root, 'with  two spaces.txt'));
    write(root, '-leading-dash.txt', 'dash, edited\n');
    fs.rmSync(path.join(root, 'new\nline.txt'));
    write(root, 'another\nnewline', 'created\n');
    fs.rmSync(path.join(root, 'a'), { recursive: true });
    fs.rmSync(path.join(root, 'link-to-file'));
    fs.symlinkSync('empty.txt', path.join(root, 'link-to-file'));
    fs.rmSync(path.join(root, 'dangling'));
    write(root, 'dangling', 'a file where a dangling symlink was\n');
    write(root, 'crlf.txt', 'one\ntwo\n');
    fs.rmSync(path.join(root, 'flip'));
    write(root, 'flip/x.txt', 'flip is a folder now\n');
    fs.rmSync(path.join(root, 'flop'), { recursive: true });
    write(root, 'flop', 'flop is a file now\n');
    write(root, 'tool', '#!/bin/sh\n', 0o755);
    const stateB = projectState(root);
    expect(stateB).not.toEqual(stateA);

    const restored = await restore(root, id);
    expect(projectState(root)).toEqual(stateA);
    const want = expectedChange(stateB, stateA);
    expect([...restored.changed].sort()).toEqual(want.changed);
    expect([...restored.deleted].sort()).toEqual(want.deleted);
    expect(restored.checkpoint).toBe(id);

    await redo(root);
    expect(projectState(root)).toEqual(stateB);

    await restore(root, id);
    expect(projectState(root)).toEqual(stateA);
  });

  it.each([
    ['moved out and linked back (the folder outside holds the same names)', true],
    ['replaced by a link to an unrelated folder outside', false],
  ])('a folder %s comes back as a real folder; nothing outside is written', async (_name, moved) => {
    const root = sb.repo('link-out');
    write(root, 'lib/one.txt', 'one\n');
    write(root, 'lib/sub/two.txt', 'two\n');
    write(root, 'main.txt', 'main\n');
    const stateA = projectState(root);
    const id = await snap(root, 'A');

    const outside = sb.folder('outside');
    if (moved) {
      fs.renameSync(path.join(root, 'lib'), path.join(outside, 'lib'));
      write(outside, 'lib/one.txt', 'one, edited outside\n');
      write(outside, 'lib/three.txt', 'three, only outside\n');
    } else {
      fs.rmSync(path.join(root, 'lib'), { recursive: true });
      write(outside, 'lib/unrelated.txt', 'not ours\n');
    }
    fs.symlinkSync(path.join(outside, 'lib'), path.join(root, 'lib'));
    write(root, 'main.txt', 'main, edited\n');
    const stateB = projectState(root);
    const outsideBefore = fingerprint(outside);
    const outsideStamps = stamps(outside);

    const restored = await restore(root, id);
    expect(fingerprint(outside), 'nothing written outside').toEqual(outsideBefore);
    expect(stamps(outside), 'nothing replaced outside').toEqual(outsideStamps);
    expect(projectState(root)).toEqual(stateA);
    expect([...restored.changed].sort()).toEqual(['lib/one.txt', 'lib/sub/two.txt', 'main.txt']);
    expect(restored.deleted).toEqual(['lib']);

    await redo(root);
    expect(projectState(root)).toEqual(stateB);
    expect(fingerprint(outside)).toEqual(outsideBefore);
    expect(stamps(outside)).toEqual(outsideStamps);
  });

  it('a file whose name is not UTF-8 is left alone and said so: no file of another name is written or deleted', async () => {
    const root = sb.repo('latin1');
    const latin1 = Buffer.concat([Buffer.from(root + '/caf'), Buffer.from([0xe9]), Buffer.from('.txt')]);
    const gone = Buffer.concat([Buffer.from(root + '/na'), Buffer.from([0xef]), Buffer.from('ve.txt')]);
    fs.writeFileSync(latin1, 'at the checkpoint\n');
    write(root, 'plain.txt', 'plain at the checkpoint\n');
    const id = await snap(root, 'A');
    fs.writeFileSync(latin1, 'edited after\n');
    fs.writeFileSync(gone, 'created after\n');
    write(root, 'plain.txt', 'plain, edited\n');
    await snap(root, 'B');
    const namesBefore = fs.readdirSync(root, { encoding: 'buffer' }).map((name) => name.toString('hex')).sort();

    const dry = await rewind(['restore', String(id), '--dry-run', '--json'], sb.env, root);
    const plan = JSON.parse(dry.stdout) as { writes: { path: string }[]; deletes: string[]; leftAlone: { reason: string }[] };
    expect(plan.writes.map((entry) => entry.path)).toEqual(['plain.txt']);
    expect(plan.deletes).toEqual([]);
    expect(plan.leftAlone.map((entry) => entry.reason)).toEqual([expect.stringContaining('not UTF-8'), expect.stringContaining('not UTF-8')]);
    const result = await restore(root, id);
    expect(result.changed).toEqual(['plain.txt']);
    expect(result.deleted).toEqual([]);
    expect(fs.readFileSync(latin1, 'utf8')).toBe('edited after\n');
    expect(fs.readFileSync(gone, 'utf8')).toBe('created after\n');
    expect(fs.readdirSync(root, { encoding: 'buffer' }).map((name) => name.toString('hex')).sort()).toEqual(namesBefore);
  });

  // A mount inside the project (a tmpfs, a volume): a staged copy cannot be renamed into it.
  // Mounting needs root, as this machine and CI run the tests.
  it('a folder on another file system than the project is left alone, said so, and the rest is restored', async () => {
    const root = sb.repo('mounted');
    const sub = path.join(root, 'sub');
    fs.mkdirSync(sub);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', sub]);
    try {
      write(root, 'sub/a.txt', 'a at the checkpoint\n');
      write(root, 'top.txt', 'top at the checkpoint\n');
      const id = await snap(root, 'A');
      write(root, 'sub/a.txt', 'a, edited\n');
      write(root, 'top.txt', 'top, edited\n');
      await snap(root, 'B');

      const dry = await rewind(['restore', String(id), '--dry-run', '--json'], sb.env, root);
      const plan = JSON.parse(dry.stdout) as { writes: { path: string }[]; leftAlone: { path: string; reason: string }[] };
      expect(plan.writes.map((entry) => entry.path)).toEqual(['top.txt']);
      expect(plan.leftAlone).toEqual([{ path: 'sub/a.txt', reason: expect.stringContaining('another file system'), refused: 'EXDEV' }]);
      const result = await restore(root, id);
      expect(result.changed).toEqual(['top.txt']);
      expect(fs.readFileSync(path.join(root, 'top.txt'), 'utf8')).toBe('top at the checkpoint\n');
      expect(fs.readFileSync(path.join(root, 'sub/a.txt'), 'utf8')).toBe('a, edited\n');
      // Nothing was cut off; with only that file left to change, a restore says so in one line.
      const again = await rewind(['restore', String(id), '--yes'], sb.env, root);
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr).toMatch(/^rewind: cannot restore checkpoint #\d+: every file it would change is on a mount inside the project \(sub\/a\.txt: .*\); copy them back from `rewind show` or `rewind fork \d+`; nothing was changed\n$/);
      expect(await rewind(['restore', String(id), '--yes', '--only', 'top.txt'], sb.env, root)).toMatchObject({ code: 0 });
    } finally {
      execFileSync('umount', [sub]);
    }
  });

  it('a folder replaced by a symlink to another folder of the project comes back as a real folder; the other folder is untouched', async () => {
    const root = sb.repo('link-in');
    write(root, 'lib/one.txt', 'lib one\n');
    write(root, 'vendor/one.txt', 'vendor one\n');
    write(root, 'vendor/two.txt', 'vendor two\n');
    const stateA = projectState(root);
    const id = await snap(root, 'A');
    fs.rmSync(path.join(root, 'lib'), { recursive: true });
    fs.symlinkSync('vendor', path.join(root, 'lib'));
    const stateB = projectState(root);
    const vendorStamps = stamps(path.join(root, 'vendor'));

    const restored = await restore(root, id);
    expect(projectState(root)).toEqual(stateA);
    expect(stamps(path.join(root, 'vendor'))).toEqual(vendorStamps);
    expect(restored).toMatchObject({ changed: ['lib/one.txt'], deleted: ['lib'] });
    await redo(root);
    expect(projectState(root)).toEqual(stateB);
  });

  it('a restore whose folder is now an ignored symlink to outside the project writes nothing outside and says so', async () => {
    const root = sb.repo('ignored-link');
    write(root, '.gitignore', '');
    write(root, 'out/report.txt', 'report at the checkpoint\n');
    write(root, 'out/new-in-checkpoint.txt', 'only at the checkpoint\n');
    const id = await snap(root, 'A');

    const outside = sb.folder('outside-target');
    write(outside, 'report.txt', 'someone else\'s report\n');
    write(outside, 'theirs.txt', 'theirs\n');
    fs.rmSync(path.join(root, 'out'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'out'));
    write(root, '.gitignore', '/out\n');
    const outsideBefore = fingerprint(outside);
    const outsideStamps = stamps(outside);

    const result = await rewind(['restore', String(id), '--yes'], sb.env, root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(fingerprint(outside)).toEqual(outsideBefore);
    expect(stamps(outside)).toEqual(outsideStamps);
    expect(fs.readlinkSync(path.join(root, 'out'))).toBe(outside);
    // The .gitignore is restored; the files behind the symlink are reported as left alone.
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe('');
    expect(result.stdout).toMatch(/left alone\s+out\/new-in-checkpoint\.txt/);
  });

  it('files already right keep their mtime and inode, including one touched with the same bytes', async () => {
    const root = sb.repo('mtimes');
    for (let i = 0; i < 20; i++) write(root, `src/file${i}.txt`, `file ${i}\n`);
    write(root, 'same.txt', 'same bytes\n');
    const stateA = projectState(root);
    const id = await snap(root, 'A');

    write(root, 'src/file3.txt', 'file 3, edited\n');
    fs.chmodSync(path.join(root, 'src/file4.txt'), 0o755);
    fs.rmSync(path.join(root, 'src/file5.txt'));
    write(root, 'src/added.txt', 'added\n');
    write(root, 'same.txt', 'same bytes\n');
    for (const file of Object.keys(withoutFolders(projectState(root)))) age(root, file, 3600);
    const touched = new Date(Date.now() - 7200_000);
    fs.utimesSync(path.join(root, 'same.txt'), touched, touched);
    const before = stamps(root);

    const restored = await restore(root, id);
    expect(projectState(root)).toEqual(stateA);
    expect([...restored.changed].sort()).toEqual(['src/file3.txt', 'src/file4.txt', 'src/file5.txt']);
    expect(restored.deleted).toEqual(['src/added.txt']);
    const after = stamps(root);
    const untouched = Object.keys(before).filter((file) => !['src/file3.txt', 'src/file4.txt', 'src/file5.txt', 'src/added.txt'].includes(file));
    expect(untouched.length).toBe(19);
    for (const file of untouched) expect(after[file], file).toBe(before[file]);
  });

  it('ignored files and oversize files on disk are untouched, even when the checkpoint predates them or held a small version', async () => {
    const root = sb.repo('left-alone');
    // ~1 KB cap.
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), JSON.stringify({ checkpoint_max_file_mb: 0.001 }));
    write(root, '.gitignore', '*.log\nbuild/\n');
    write(root, 'code.txt', 'code v1\n');
    write(root, 'data.bin', 'small at the checkpoint\n');
    sb.git(root, 'add', '.gitignore');
    sb.git(root, 'commit', '-q', '-m', 'ignore rules');
    const id = await snap(root, 'A');

    write(root, 'code.txt', 'code v2\n');
    write(root, 'debug.log', 'ignored, written after the checkpoint\n');
    write(root, 'build/out.js', 'ignored folder\n');
    write(root, 'big.bin', Buffer.alloc(5000, 'b'));
    write(root, 'data.bin', Buffer.alloc(4000, 'd'));
    const later = await snap(root, 'B');
    const skipped = sb.open(root).get(later).skipped.map((file) => file.path);
    expect(skipped).toEqual(['big.bin', 'data.bin']);
    const keep = ['debug.log', 'build/out.js', 'big.bin', 'data.bin'];
    const before = projectState(root);
    const beforeStamps = stamps(root);

    const result = await rewind(['restore', String(id), '--yes'], sb.env, root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(root, 'code.txt'), 'utf8')).toBe('code v1\n');
    const after = projectState(root);
    const afterStamps = stamps(root);
    for (const file of keep) {
      expect(after[file], file).toBe(before[file]);
      expect(afterStamps[file], file).toBe(beforeStamps[file]);
    }
    expect(result.stdout).toMatch(/left alone\s+data\.bin/);
  });
});
