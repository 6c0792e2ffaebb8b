// The fence that tells when the watcher's events have all arrived (watchFence.ts): one folder
// and one watch for the process, so it must keep its order call after call, side by side,
// and come back when its folder is taken from under it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileEventsDelivered } from '../../src/runtime/checkpointing/watchFence.js';

const linux = process.platform === 'linux';
let temp: string;
let root: string;
let tmpdirBefore: string | undefined;
beforeAll(() => {
  // A temp folder of this file's own: the cleaner below empties it, and no other test's fence is there.
  temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-fence-test-')));
  root = fs.mkdtempSync(path.join(temp, 'watched-'));
  tmpdirBefore = process.env.TMPDIR;
  process.env.TMPDIR = temp;
});
afterAll(() => {
  if (tmpdirBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpdirBefore;
  fs.rmSync(temp, { recursive: true, force: true });
});

function watchSeen(): { seen: string[]; close: () => void } {
  const seen: string[] = [];
  const watch = fs.watch(root, (_event, name) => seen.push(String(name)));
  return { seen, close: () => watch.close() };
}

describe('fileEventsDelivered', () => {
  it('keeps its order call after call and side by side', async () => {
    const { seen, close } = watchSeen();
    try {
      for (const round of [1, 2, 3]) {
        fs.writeFileSync(path.join(root, `round-${round}.txt`), 'x');
        expect(await fileEventsDelivered(5_000)).toBe(linux);
        expect(seen).toContain(`round-${round}.txt`);
      }
      fs.writeFileSync(path.join(root, 'side-a.txt'), 'x');
      fs.writeFileSync(path.join(root, 'side-b.txt'), 'x');
      expect(await Promise.all([fileEventsDelivered(5_000), fileEventsDelivered(5_000)])).toEqual([linux, linux]);
      expect(seen).toEqual(expect.arrayContaining(['side-a.txt', 'side-b.txt']));
    } finally {
      close();
    }
  });

  it('has one folder for the process, and makes another at once when a cleaner of the temp folder took it', async () => {
    const fences = () => fs.readdirSync(temp).filter((entry) => entry.startsWith('rewind-fence-'));
    await fileEventsDelivered(5_000);
    await fileEventsDelivered(5_000);
    expect(fences()).toHaveLength(linux ? 1 : 0);
    for (const entry of fences()) fs.rmSync(path.join(temp, entry), { recursive: true, force: true });
    // The folders of a process that ended without exiting (killed, or gone with its terminal):
    // removed by the next fence made; one of a process still running stays.
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.mkdirSync(path.join(temp, `rewind-fence-${ended}-AbCdEf`));
    fs.writeFileSync(path.join(temp, `rewind-fence-${ended}-AbCdEf`, 'fence-3'), '');
    fs.mkdirSync(path.join(temp, `rewind-fence-${process.ppid}-GhIjKl`));
    const { seen, close } = watchSeen();
    try {
      fs.writeFileSync(path.join(root, 'after-cleaner.txt'), 'x');
      expect(await fileEventsDelivered(5_000)).toBe(linux);
      expect(seen).toContain('after-cleaner.txt');
      if (linux) {
        expect(fences()).toHaveLength(2);
        expect(fences()).toContain(`rewind-fence-${process.ppid}-GhIjKl`);
        expect(fences().filter((entry) => entry.startsWith(`rewind-fence-${process.pid}-`))).toHaveLength(1);
      }
    } finally {
      close();
    }
  });
});
