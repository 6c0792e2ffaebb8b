// What a test or the bench injects (src/shared/seams.ts): a seam calls what was installed and
// nothing else; a speed-up turned off leaves the same first checkpoint, taken the slower way;
// and nothing is injected unless installed (the product never reads a variable for them).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seam, trickOn, type Injected, type Trick } from '../../src/shared/seams.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { shadowGit } from '../helpers/shadow.js';

const key = Symbol.for('rewind.injected');
const global = globalThis as { [key]?: Injected };
const tricks: Trick[] = ['seed-index', 'kept-heap'];
let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-seams-');
});
afterEach(() => {
  delete global[key];
  sb.cleanup();
});

describe('seams and speed-ups', () => {
  it('do nothing unless installed: every speed-up on, a seam calls nothing; installed, they act', () => {
    process.env.REWIND_BENCH_NO_SEED = '1';
    expect(tricks.every((trick) => trickOn(trick))).toBe(true);
    delete process.env.REWIND_BENCH_NO_SEED;
    expect(() => seam('journal')).not.toThrow();
    const seen: string[] = [];
    global[key] = { at: (name) => seen.push(name), off: new Set(['seed-index']) };
    seam('journal');
    seam('staged:2');
    expect(seen).toEqual(['journal', 'staged:2']);
    expect(trickOn('seed-index')).toBe(false);
    global[key] = { off: new Set() };
    expect(trickOn('seed-index')).toBe(true);
  });

  it('a speed-up turned off leaves the same first checkpoint, taken the slower way', async () => {
    const trees: string[] = [];
    for (const trick of [undefined, ...tricks]) {
      // The same files in a project of their own each time (a first snapshot each).
      const root = sb.repo(`same-${trick ?? 'none'}`);
      fs.appendFileSync(path.join(root, 'README.md'), 'changed since the commit\n');
      fs.writeFileSync(path.join(root, 'untracked.txt'), 'new\n');
      if (trick) global[key] = { off: new Set([trick]) };
      const checkpoints = sb.open(root);
      const { record } = await checkpoints.snapshot({ label: 'first', trigger: 'manual' });
      const gitDir = checkpoints.repo.gitDir;
      expect(shadowGit(gitDir, 'rev-parse', 'refs/checkpoints/1').trim()).toBe(record.commit);
      expect(shadowGit(gitDir, 'log', '-1', '--format=%T %P|%s', record.commit).trim()).toBe(`${record.tree} |first`);
      trees.push(record.tree);
      delete global[key];
    }
    expect(new Set(trees).size).toBe(1);
  });
});
