// Issue 11 item 30: nothing in a store is for other users (snapshots hold the project's
// secrets): every folder is 0700 and every file 0600 (objects, which git keeps read-only,
// 0400), after snapshots, restores, redo and a gc, whatever the umask.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { redoLast } from '../../src/checkpoints/restore/redo.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

let sb: Sandbox;
let umask: number;
beforeEach(() => {
  sb = createSandbox('rewind-store-modes-');
  umask = process.umask(0o022);
});
afterEach(async () => {
  process.umask(umask);
  await sb.cleanup();
});

function modes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      const stat = fs.lstatSync(full);
      out[path.relative(root, full)] = (stat.mode & 0o777).toString(8);
      if (stat.isDirectory()) walk(full);
    }
  };
  walk(root);
  return out;
}

describe('the modes in a store', () => {
  it('are 0700 for folders and 0600 (0400 read-only) for files', async () => {
    const root = sb.repo('modes');
    write(root, 'sub/a.txt', 'secret\n');
    const engine = sb.open(root);
    await engine.snapshot({ label: 'one' });
    write(root, 'sub/a.txt', 'changed\n');
    write(root, 'new/b.txt', 'new\n');
    await engine.snapshot({ label: 'two' });
    await restoreCheckpoint(engine, 1);
    await redoLast(engine);
    await waitFor(() => !fs.existsSync(path.join(engine.store.root, 'heavy-scan.started')) || !fs.existsSync(`/proc/${fs.readFileSync(path.join(engine.store.root, 'heavy-scan.started'), 'utf8')}`), 10_000, 'the heavy-file walk');
    execFileSync('git', [`--git-dir=${engine.repo.gitDir}`, 'gc', '--quiet'], { env: { PATH: process.env.PATH, HOME: sb.home } });
    const found = modes(path.join(sb.store));
    const wrong = Object.entries(found).filter(([file, mode]) => {
      const stat = fs.lstatSync(path.join(sb.store, file));
      return stat.isDirectory() ? mode !== '700' : mode !== '600' && mode !== '400';
    });
    expect(wrong).toEqual([]);
    expect(Object.keys(found).some((file) => file.includes(`objects${path.sep}pack`))).toBe(true);
  });
});
