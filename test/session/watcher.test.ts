// The watcher sees changes in the folders it should, never in ignored ones or .git, and
// picks up folders that appear.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeWatcher } from '../../src/session/watcher.js';
import { waitFor } from '../helpers/waitFor.js';

let root: string;
let watcher: ChangeWatcher | undefined;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-watch-')));
});
afterEach(() => {
  watcher?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function write(file: string, text = 'x\n'): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

describe('ChangeWatcher', () => {
  it('reports settled bursts in watched folders and new ones, never in ignored folders or .git', async () => {
    write('src/a.ts');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    const bursts: string[][] = [];
    const asked: string[][] = [];
    watcher = new ChangeWatcher(root, {
      debounceMs: 50,
      folders: ['src'],
      ignored: async (folders) => {
        asked.push(folders);
        return new Set(folders.filter((folder) => folder === 'node_modules' || folder.startsWith('node_modules/')));
      },
      onSettled: (paths) => bursts.push(paths),
      onError: (error) => {
        throw error;
      },
    });
    expect(watcher.size).toBe(2);
    const seen = () => bursts.flat();

    write('src/a.ts', 'changed\n');
    await waitFor(() => seen().includes('src/a.ts'), 5_000, 'the change in src');

    write('node_modules/pkg/index.js');
    write('lib/deep/new.ts');
    await waitFor(() => asked.some((folders) => folders.includes('lib')) && asked.some((folders) => folders.includes('node_modules')), 5_000, 'the new folders to be looked at');
    await waitFor(() => watcher?.size === 4, 5_000, 'lib and lib/deep watched, node_modules not');

    write('node_modules/pkg/index.js', 'changed inside an ignored folder\n');
    write('.git/HEAD', 'ref: refs/heads/other\n');
    write('lib/deep/new.ts', 'changed in a new folder\n');
    await waitFor(() => seen().includes('lib/deep/new.ts'), 5_000, 'the change in the new folder');
    expect(seen().filter((file) => file.startsWith('node_modules/pkg/') || file.includes('.git'))).toEqual([]);
  });

  it('drops what happens while paused', async () => {
    write('src/a.ts');
    const bursts: string[][] = [];
    watcher = new ChangeWatcher(root, { debounceMs: 50, folders: ['src'], ignored: async () => new Set(), onSettled: (paths) => bursts.push(paths), onError: () => undefined });
    const resume = watcher.pause();
    // A second watcher on the same folder tells when the paused write's event has been
    // delivered (to both), so resuming only after it proves that event was dropped.
    const probe = fs.watch(path.join(root, 'src'));
    const delivered = new Promise<void>((resolve) => probe.once('change', () => setImmediate(resolve)));
    write('src/a.ts', 'written by a restore\n');
    await delivered;
    probe.close();
    resume();
    write('src/b.ts');
    await waitFor(() => bursts.flat().includes('src/b.ts'), 5_000, 'the change after resuming');
    expect(bursts.flat()).not.toContain('src/a.ts');
  });
});
