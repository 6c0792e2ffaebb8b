// Which folders a restore syncs once its renames and deletions are made: exactly those whose
// entries it changed (the folder a file was renamed into or deleted from, the parent of a
// folder it made or removed), never a folder above them that holds no change; and the
// journal's folder, whenever the journal is written again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyPlan } from '../../src/checkpoints/restore/apply.js';
import { foldersAbove, syncFolderOrThrow, syncFolders } from '../../src/checkpoints/restore/durable.js';
import type { RestorePlan } from '../../src/checkpoints/restore/plan.js';
import { rewriteJournal, writeJournal } from '../../src/checkpoints/restore/journal.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

const fsRename = fs.renameSync;
const fsSync = fs.fsyncSync;

let sb: Sandbox;
let root: string;
let staging: string;
beforeEach(() => {
  sb = createSandbox('rewind-folders-synced-');
  root = path.join(sb.base, 'project');
  staging = path.join(sb.base, 'staging');
  fs.mkdirSync(staging);
});
afterEach(async () => {
  await sb.cleanup();
});

/** A staged copy for each write, as stageWrites leaves them. */
function staged(plan: RestorePlan): string[] {
  return plan.writes.map((write, index) => {
    const file = path.join(staging, String(index));
    fs.writeFileSync(file, `restored ${write.path}\n`);
    return file;
  });
}

const replaced = (file: string) => ({ path: file, mode: '100644', oid: '0'.repeat(40), creates: false });
const relative = (folders: Iterable<string>) => [...folders].map((folder) => path.relative(root, folder) || '.').sort();

describe('applyPlan: the folders whose entries it changed', () => {
  it('a file replaced deep in the tree: its folder alone, not the folders above it', () => {
    write(root, 'src/lib/deep/a.txt', 'before\n');
    write(root, 'top.txt', 'before\n');
    const plan: RestorePlan = { writes: [replaced('src/lib/deep/a.txt')], deletes: [], leftAlone: [] };
    const applied = applyPlan(root, plan, staged(plan));
    expect(applied.changed).toEqual(['src/lib/deep/a.txt']);
    expect(relative(applied.folders)).toEqual(['src/lib/deep']);
  });

  it('folders it made: each one and the folder the outermost was made in', () => {
    write(root, 'src/keep.txt', 'kept\n');
    const plan: RestorePlan = { writes: [{ ...replaced('src/new/inner/b.txt'), creates: true }], deletes: [], leftAlone: [] };
    const applied = applyPlan(root, plan, staged(plan));
    expect(fs.readFileSync(path.join(root, 'src/new/inner/b.txt'), 'utf8')).toBe('restored src/new/inner/b.txt\n');
    expect(relative(applied.folders)).toEqual(['src', 'src/new', 'src/new/inner']);
  });

  it('a deletion that empties its folders: the folder that held the outermost one removed', () => {
    write(root, 'old/gone/c.txt', 'before\n');
    write(root, 'other/d.txt', 'kept\n');
    const plan: RestorePlan = { writes: [], deletes: ['old/gone/c.txt'], leftAlone: [] };
    const applied = applyPlan(root, plan, staged(plan));
    expect(fs.existsSync(path.join(root, 'old'))).toBe(false);
    // old/gone and old are gone: their removal is in the project's root; syncFolders passes over the gone ones.
    expect(relative(applied.folders)).toEqual(['.', 'old', 'old/gone']);
  });

  it('a folder emptied and made again in one restore: the folder above it too', () => {
    write(root, 'pkg/x/old.txt', 'before\n');
    write(root, 'pkg/keep.txt', 'kept\n');
    const plan: RestorePlan = { writes: [{ ...replaced('pkg/x/new.txt'), creates: true }], deletes: ['pkg/x/old.txt'], leftAlone: [] };
    const applied = applyPlan(root, plan, staged(plan));
    expect(fs.readdirSync(path.join(root, 'pkg/x'))).toEqual(['new.txt']);
    expect(relative(applied.folders)).toEqual(['pkg', 'pkg/x']);
  });

  it('an empty folder where a file goes: the folder it stood in', () => {
    write(root, 'pkg/keep.txt', 'kept\n');
    fs.mkdirSync(path.join(root, 'pkg/x'));
    const plan: RestorePlan = { writes: [replaced('pkg/x')], deletes: [], leftAlone: [] };
    const applied = applyPlan(root, plan, staged(plan));
    expect(fs.readFileSync(path.join(root, 'pkg/x'), 'utf8')).toBe('restored pkg/x\n');
    expect(relative(applied.folders)).toEqual(['pkg']);
  });

  // A write the system refuses after its folders were made: a staged copy on another file
  // system (/dev/shm, a tmpfs here and in CI) cannot be renamed into the project (EXDEV).
  it('folders made for a write the system refused: removed again, up to one something else went into', () => {
    const elsewhere = fs.mkdtempSync('/dev/shm/rewind-staged-');
    try {
      expect(fs.statSync(elsewhere).dev).not.toBe(fs.statSync(sb.base).dev);
      write(root, 'keep.txt', 'kept\n');
      const plan: RestorePlan = { writes: [{ ...replaced('new/a.txt'), creates: true }, { ...replaced('new/inner/deep/b.txt'), creates: true }, { ...replaced('other/c.txt'), creates: true }], deletes: [], leftAlone: [] };
      const copies = staged(plan);
      for (const index of [1, 2]) {
        const moved = path.join(elsewhere, String(index));
        fs.copyFileSync(copies[index] ?? '', moved);
        copies[index] = moved;
      }
      const applied = applyPlan(root, plan, copies);
      expect(applied.changed).toEqual(['new/a.txt']);
      expect(applied.leftAlone).toEqual([
        { path: 'new/inner/deep/b.txt', reason: expect.stringContaining('another file system'), refused: 'EXDEV' },
        { path: 'other/c.txt', reason: expect.stringContaining('another file system'), refused: 'EXDEV' },
      ]);
      // new/ holds the write that was made; the folders made for the refused ones are gone.
      expect(fs.readdirSync(path.join(root, 'new'))).toEqual(['a.txt']);
      expect(fs.existsSync(path.join(root, 'other'))).toBe(false);
      expect(fs.readdirSync(root).sort()).toEqual(['keep.txt', 'new']);
      // Each folder a folder was made and removed again in (new/inner: deep; new/inner, now
      // gone, syncFolders passes over), and the one a.txt was renamed into.
      expect(relative(applied.folders)).toEqual(['.', 'new', 'new/inner']);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('syncFolders opens and syncs each of those folders that still exists, and passes over the gone ones', async () => {
    write(root, 'old/gone/c.txt', 'before\n');
    write(root, 'kept/d.txt', 'before\n');
    write(root, 'kept/e.txt', 'stays\n');
    const plan: RestorePlan = { writes: [], deletes: ['old/gone/c.txt', 'kept/d.txt'], leftAlone: [] };
    const applied = applyPlan(root, plan, staged(plan));
    const opened = vi.spyOn(fs, 'openSync');
    const synced = vi.spyOn(fs, 'fsync');
    try {
      await syncFolders(applied.folders);
      const folders = opened.mock.results.flatMap((result, index) => (result.type === 'return' ? [String(opened.mock.calls[index]?.[0])] : []));
      expect(relative(folders)).toEqual(['.', 'kept']);
      expect(synced).toHaveBeenCalledTimes(2);
    } finally {
      opened.mockRestore();
      synced.mockRestore();
    }
  });
});

describe('finishing a restore that was cut off, and the journal', () => {
  it('foldersAbove: every folder above the paths the cut-off restore named, up to the root', () => {
    expect(relative(foldersAbove(root, ['a/b/c.txt', 'a/d.txt', 'e.txt']))).toEqual(['.', 'a', 'a/b']);
  });

  it("rewriteJournal (a redo point moved, a cut-off restore's journal put back) syncs the journal's folder after the rename", () => {
    const store = path.join(sb.base, 'journal-folder');
    fs.mkdirSync(store);
    const file = path.join(store, 'restore-journal.json');
    const journal = writeJournal(file, { target: 1, redo: 2, isRedo: false, staging: path.join(store, 'staging'), writes: ['a.txt'], deletes: [], createdDirs: [] });
    const events: string[] = [];
    const renamed = vi.spyOn(fs, 'renameSync').mockImplementation(function (this: unknown, from, to) {
      events.push(`rename ${path.basename(String(to))}`);
      return fsRename.call(this, from, to);
    });
    const opened = vi.spyOn(fs, 'openSync');
    const synced = vi.spyOn(fs, 'fsyncSync').mockImplementation(function (this: unknown, fd) {
      const at = opened.mock.results.findLastIndex((result) => result.type === 'return' && result.value === fd);
      events.push(`sync ${path.relative(sb.base, String(opened.mock.calls[at]?.[0])) || '.'}`);
      return fsSync.call(this, fd);
    });
    try {
      rewriteJournal(file, { ...journal, redo: 3, redoWas: 2 });
    } finally {
      renamed.mockRestore();
      opened.mockRestore();
      synced.mockRestore();
    }
    expect(events.slice(-2)).toEqual(['rename restore-journal.json', 'sync journal-folder']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ redo: 3, redoWas: 2, owner: journal.owner });
  });

  it("syncFolderOrThrow fails when the journal's folder cannot be synced (here: it is gone)", async () => {
    await expect(syncFolderOrThrow(path.join(root, 'no-such-folder'))).rejects.toThrow(/ENOENT/);
    fs.mkdirSync(root, { recursive: true });
    await expect(syncFolderOrThrow(root)).resolves.toBeUndefined();
  });
});
