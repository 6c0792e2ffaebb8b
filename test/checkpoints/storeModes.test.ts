// The store is private, as the README promises: every folder 0700, every file 0600, and
// the shadow's objects read-only for the owner alone (0400), as git writes them there
// (core.sharedRepository 0600): the first commit, written without git, included.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-store-modes-');
});
afterEach(() => sb.cleanup());

/** Each entry under `root` whose mode is not what the store promises, as `mode path`. */
function unlike(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      // The background walk for heavy files writes its result under a temporary name and
      // renames it: one listed a moment ago may be gone.
      const stat = fs.lstatSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      const rel = path.relative(root, full);
      const mode = stat.mode & 0o7777;
      const object = /^repo\.git\/objects\/([0-9a-f]{2}\/[0-9a-f]{38,62}|pack\/pack-[0-9a-f]+\.(pack|idx|rev))$/.test(rel);
      const wanted = stat.isDirectory() ? 0o700 : object ? 0o400 : 0o600;
      if (mode !== wanted) out.push(`${mode.toString(8)} ${rel}`);
      if (stat.isDirectory()) visit(full);
    }
  };
  visit(root);
  return out;
}

describe('the store\'s modes', () => {
  it('folders 0700, files 0600, objects 0400: the first commit (written without git) as the ones git writes', async () => {
    const previous = process.umask(0o022);
    try {
      const root = sb.repo('proj');
      write(root, 'a.txt', 'one\n');
      expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
      write(root, 'a.txt', 'two\n');
      expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
      const [store] = fs.readdirSync(path.join(sb.store, 'history'));
      const storeRoot = path.join(sb.store, 'history', store ?? '');
      const firstCommit = fs.readFileSync(path.join(storeRoot, 'repo.git', 'refs', 'checkpoints', '1'), 'utf8').trim();
      const object = path.join(storeRoot, 'repo.git', 'objects', firstCommit.slice(0, 2), firstCommit.slice(2));
      expect((fs.statSync(object).mode & 0o777).toString(8)).toBe('400');
      expect(unlike(storeRoot)).toEqual([]);
      // And after a restore (its redo point and bookkeeping) and a bisect (its scratch folder).
      expect((await rewind(['restore', '1', '--yes'], sb.env, root)).code).toBe(0);
      expect((await rewind(['bisect', '--good', '1', '--bad', '3', '--', 'sh', '-c', 'grep -q one a.txt'], sb.env, root)).code).toBe(0);
      expect(unlike(storeRoot)).toEqual([]);
    } finally {
      process.umask(previous);
    }
  });
});
