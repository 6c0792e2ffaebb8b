// Files over checkpoint_max_file_mb and files matching the heavy patterns stay out of
// checkpoints and are reported as skipped.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blobOid, hasObject, treePaths } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-sizecap-');
});
afterEach(() => sb.cleanup());

/** ~1 KB: 0.001 MiB is 1048.576 bytes. */
const tinyCap = { checkpointMaxFileMb: 0.001 };
const big = (bytes: number, fill = 'x') => Buffer.alloc(bytes, fill);


describe('size cap', () => {
  it('a new file over the cap is out and skipped while big, and in once it shrinks', async () => {
    const root = sb.repo('cap');
    write(root, 'small.txt', 'small\n');
    write(root, 'big.log', big(5000));
    // Glob characters in the name: the exclusion must match this file only.
    write(root, 'huge [1]*.dat', big(3000));
    write(root, 'huge [1]x.dat', 'a small sibling that a glob would also match\n');
    const checkpoints = sb.open(root, tinyCap);
    const shadow = checkpoints.repo.gitDir;

    const first = await checkpoints.snapshot({ label: 'first' });
    expect(treePaths(shadow, first.record.tree)).toEqual(['README.md', 'huge [1]x.dat', 'small.txt']);
    expect(first.record.skipped).toEqual([
      { path: 'big.log', bytes: 5000, reason: expect.stringContaining('checkpoint_max_file_mb') },
      { path: 'huge [1]*.dat', bytes: 3000, reason: expect.stringContaining('checkpoint_max_file_mb') },
    ]);

    // Still big (and bigger) in later checkpoints: still out, still reported with its size now.
    write(root, 'small.txt', 'small, edited\n');
    write(root, 'big.log', big(6000));
    const second = await checkpoints.snapshot({ label: 'second' });
    expect(treePaths(shadow, second.record.tree)).toEqual(['README.md', 'huge [1]x.dat', 'small.txt']);
    expect(second.record.skipped.map(({ path: file, bytes }) => ({ file, bytes }))).toEqual([
      { file: 'big.log', bytes: 6000 },
      { file: 'huge [1]*.dat', bytes: 3000 },
    ]);

    // Shrunk below the cap: in the next checkpoint, no longer skipped.
    write(root, 'big.log', 'now small\n');
    const third = await sb.open(root, tinyCap).snapshot({ label: 'third' });
    expect(treePaths(shadow, third.record.tree)).toEqual(['README.md', 'big.log', 'huge [1]x.dat', 'small.txt']);
    expect(third.record.skipped.map((file) => file.path)).toEqual(['huge [1]*.dat']);
    fs.rmSync(path.join(root, 'huge [1]*.dat'));
    const fourth = await checkpoints.snapshot({ label: 'fourth' });
    expect(fourth.record.skipped).toEqual([]);
  });

  it('a restore never deletes a file the checkpoint left out for its size, though a later checkpoint holds it', async () => {
    const root = sb.repo('cap-restore');
    write(root, 'big.log', big(5000));
    const checkpoints = sb.open(root, tinyCap);
    const first = await checkpoints.snapshot({ label: 'big then' });
    write(root, 'big.log', 'small now\n');
    await checkpoints.snapshot({ label: 'small now' });

    const { preview } = await checkpoints.plan(first.record.id);
    expect(preview.deletes).toEqual([]);
    expect(preview.leftAlone).toEqual([{ path: 'big.log', reason: expect.stringContaining(`left out of checkpoint #${first.record.id}`) }]);
    await checkpoints.restore(first.record.id);
    expect(fs.readFileSync(path.join(root, 'big.log'), 'utf8')).toBe('small now\n');
  });

  it('an oversize file is never copied into the shadow store', async () => {
    const root = sb.repo('cap-no-copy');
    const content = big(50_000, 'q');
    write(root, 'dump.sql', content);
    const checkpoints = sb.open(root, tinyCap);
    const { record } = await checkpoints.snapshot();
    expect(record.skipped.map((file) => file.path)).toEqual(['dump.sql']);
    expect(hasObject(checkpoints.repo.gitDir, blobOid(content))).toBe(false);
  });

  it('a committed file that grows over the cap leaves the checkpoint, and comes back when small', async () => {
    const root = sb.repo('cap-tracked');
    write(root, 'data.csv', 'a,b\n');
    sb.git(root, 'add', '-A');
    sb.git(root, 'commit', '-q', '-m', 'data');
    const checkpoints = sb.open(root, tinyCap);
    const shadow = checkpoints.repo.gitDir;
    const first = await checkpoints.snapshot();
    expect(treePaths(shadow, first.record.tree)).toEqual(['README.md', 'data.csv']);

    fs.appendFileSync(path.join(root, 'data.csv'), big(4000, 'y'));
    const second = await checkpoints.snapshot();
    expect(treePaths(shadow, second.record.tree)).toEqual(['README.md']);
    expect(second.record.skipped).toEqual([{ path: 'data.csv', bytes: 4004, reason: expect.stringContaining('checkpoint_max_file_mb') }]);

    write(root, 'data.csv', 'a,b\n1,2\n');
    const third = await checkpoints.snapshot();
    expect(treePaths(shadow, third.record.tree)).toEqual(['README.md', 'data.csv']);
    expect(third.record.skipped).toEqual([]);
  });

  it('default heavy patterns (disk images, model weights) are out of the tree and reported as skipped', async () => {
    const root = sb.repo('heavy');
    write(root, 'disk.iso', 'iso bytes\n');
    write(root, 'models/model.safetensors', 'weights\n');
    write(root, 'models/llm.gguf', 'gguf\n');
    write(root, 'models/readme.md', 'about the models\n');
    const checkpoints = sb.open(root);
    const { record } = await checkpoints.snapshot();
    expect(treePaths(checkpoints.repo.gitDir, record.tree)).toEqual(['README.md', 'models/readme.md']);
    expect(record.skipped).toEqual([
      { path: 'disk.iso', bytes: 10, reason: expect.stringMatching(/heavy/) },
      { path: 'models/llm.gguf', bytes: 5, reason: expect.stringMatching(/heavy/) },
      { path: 'models/model.safetensors', bytes: 8, reason: expect.stringMatching(/heavy/) },
    ]);
  });
});
