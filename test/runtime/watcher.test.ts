// The watcher sees changes in the folders it should, never in ignored ones or .git, and
// picks up folders that appear.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpointer } from '../../src/runtime/checkpointing/checkpointer.js';
import { fileEventsDelivered } from '../../src/runtime/checkpointing/watchFence.js';
import { ChangeWatcher, type WatcherOptions } from '../../src/runtime/checkpointing/watcher.js';
import { createSandbox } from '../helpers/tempRepo.js';
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

/** Starts `watcher` on `dir` (src watched from the start, 50 ms debounce), its bursts pushed to `bursts`. */
function watchInto(dir: string, bursts: string[][], ignored: WatcherOptions['ignored'] = async () => new Set()): ChangeWatcher {
  watcher = new ChangeWatcher(dir, { debounceMs: 50, folders: ['src'], ignored, onSettled: (paths) => bursts.push(paths), onError: () => undefined });
  return watcher;
}

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
    // An ignored folder that appears is not walked: nothing below it is even asked about.
    expect(asked.flat().filter((folder) => folder.startsWith('node_modules/'))).toEqual([]);

    write('node_modules/pkg/index.js', 'changed inside an ignored folder\n');
    write('.git/HEAD', 'ref: refs/heads/other\n');
    write('lib/deep/new.ts', 'changed in a new folder\n');
    await waitFor(() => seen().includes('lib/deep/new.ts'), 5_000, 'the change in the new folder');
    expect(seen().filter((file) => file.startsWith('node_modules/pkg/') || file.includes('.git'))).toEqual([]);
  });

  it('past its folder limit it says so once, as a limit, not as an error, and keeps watching the others', async () => {
    for (const folder of ['a', 'b', 'c', 'd']) fs.mkdirSync(path.join(root, folder));
    const full: string[] = [];
    const errors: Error[] = [];
    const bursts: string[][] = [];
    watcher = new ChangeWatcher(root, { debounceMs: 50, folders: ['a', 'b', 'c', 'd'], maxFolders: 2, ignored: async () => new Set(), onSettled: (paths) => bursts.push(paths), onError: (error) => errors.push(error), onFull: (message) => full.push(message) });
    expect(full).toEqual(["watching 2 of the project's 5 folders only: every checkpoint walks the whole tree"]);
    expect(errors).toEqual([]);
    write('a/x.txt');
    await waitFor(() => bursts.length > 0, 5_000, 'a burst in a watched folder');
    expect(bursts[0]).toEqual(['a/x.txt']);
  });

  it('drops what happens while paused', async () => {
    write('src/a.ts');
    const bursts: string[][] = [];
    const resume = watchInto(root, bursts).pause();
    // A second watcher on the same folder tells when the paused write's event has been
    // delivered (to both), so resuming only after it proves that event was dropped.
    const probe = fs.watch(path.join(root, 'src'));
    const delivered = new Promise<void>((resolve) => probe.once('change', () => setImmediate(resolve)));
    write('src/a.ts', 'written by a restore\n');
    await delivered;
    probe.close();
    await resume();
    write('src/b.ts');
    await waitFor(() => bursts.flat().includes('src/b.ts'), 5_000, 'the change after resuming');
    expect(bursts.flat()).not.toContain('src/a.ts');
  });
});

describe('ChangeWatcher and the project\'s ignore rules', () => {
  it('leaves ignored files out of a burst, and reports no burst of ignored files only', async () => {
    const sb = createSandbox('rewind-watch-ignore-');
    try {
      const project = sb.repo('ignore');
      fs.writeFileSync(path.join(project, '.gitignore'), '*.swp\n*.log\n');
      fs.mkdirSync(path.join(project, 'src'));
      fs.writeFileSync(path.join(project, 'src/a.ts'), 'a\n');
      const engine = sb.open(project);
      await engine.snapshot({ label: 'start' });
      const checkpointer = new Checkpointer(sb.project(project), () => undefined);
      const answered: string[][] = [];
      const bursts: string[][] = [];
      watchInto(project, bursts, async (paths) => {
        const ignored = await checkpointer.ignored(paths);
        answered.push(paths);
        return ignored;
      });

      // An editor's swap file and a log: the burst is checked, and nothing is reported.
      fs.writeFileSync(path.join(project, 'src/.a.ts.swp'), 'swap\n');
      fs.writeFileSync(path.join(project, 'server.log'), 'log\n');
      await waitFor(() => answered.flat().includes('server.log') && answered.flat().includes('src/.a.ts.swp'), 5_000, 'the ignored burst to be checked');
      // A real change with an ignored one beside it: only the real one is named.
      fs.writeFileSync(path.join(project, 'src/a.ts'), 'changed\n');
      fs.writeFileSync(path.join(project, 'other.log'), 'log\n');
      await waitFor(() => bursts.flat().includes('src/a.ts'), 5_000, 'the real change');
      expect(bursts).toEqual([['src/a.ts']]);
    } finally {
      watcher?.close();
      watcher = undefined;
      await sb.cleanup();
    }
  });
});

describe('pausing while a burst is checked', () => {
  it('drops a burst whose check was under way when a pause began', async () => {
    write('src/a.ts');
    const bursts: string[][] = [];
    const asked: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const paused = watchInto(root, bursts, async (paths) => {
      asked.push(paths);
      await gate;
      return new Set();
    });
    write('src/before.ts');
    await waitFor(() => asked.flat().includes('src/before.ts'), 5_000, 'the burst to be checked');
    // Paused and resumed while the check is under way.
    await paused.pause()();
    release();
    write('src/after.ts');
    await waitFor(() => bursts.flat().includes('src/after.ts'), 5_000, 'the change after the pause');
    expect(bursts.flat()).not.toContain('src/before.ts');
  });
});

describe('resuming after a pause', () => {
  it('fileEventsDelivered resolves only after the events of earlier writes reached their listeners', async () => {
    const seen: string[] = [];
    const other = fs.watch(root, (_event, name) => seen.push(String(name)));
    try {
      write('late.txt');
      // Only Linux orders the fence behind earlier events (elsewhere the deadline decides).
      expect(await fileEventsDelivered(5_000)).toBe(process.platform === 'linux');
      expect(seen).toContain('late.txt');
    } finally {
      other.close();
    }
  });

  it('drops the events of writes made while paused even when they arrive after resume() was called', async () => {
    write('src/a.ts');
    const bursts: string[][] = [];
    const resume = watchInto(root, bursts).pause();
    // A restore's last write: its event is still queued when the restore is done.
    write('src/restored.ts', 'written by a restore\n');
    await resume();
    write('src/b.ts');
    await waitFor(() => bursts.flat().includes('src/b.ts'), 5_000, 'the change after resuming');
    expect(bursts.flat()).not.toContain('src/restored.ts');
  });
});
