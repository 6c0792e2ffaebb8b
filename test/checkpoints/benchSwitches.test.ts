// The bench-only switches (src/checkpoints/benchSwitches.ts) turn a speed-up off so the bench
// can measure it: the checkpoint must be the same either way, and unset they change nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { benchSwitchedOff } from '../../src/checkpoints/snapshot/benchSwitches.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { shadowGit } from '../helpers/shadow.js';

const names = ['REWIND_BENCH_NO_SEED', 'REWIND_BENCH_NO_LOOSE_COMMIT'] as const;
let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-switch-');
});
afterEach(() => {
  for (const name of names) delete process.env[name];
  sb.cleanup();
});

describe('bench-only switches', () => {
  it('are off unless set to 1', () => {
    for (const name of names) {
      delete process.env[name];
      expect(benchSwitchedOff(name)).toBe(false);
      process.env[name] = '0';
      expect(benchSwitchedOff(name)).toBe(false);
      process.env[name] = '1';
      expect(benchSwitchedOff(name)).toBe(true);
      delete process.env[name];
    }
  });

  it('leave the same first checkpoint, taken the slower way', async () => {
    const trees: string[] = [];
    for (const name of [undefined, ...names]) {
      // The same files in a project of their own each time (a first snapshot each).
      const root = sb.repo(`same-${name ?? 'none'}`);
      fs.appendFileSync(path.join(root, 'README.md'), 'changed since the commit\n');
      fs.writeFileSync(path.join(root, 'untracked.txt'), 'new\n');
      if (name) process.env[name] = '1';
      const checkpoints = sb.open(root);
      const { record } = await checkpoints.snapshot({ label: 'first', trigger: 'manual' });
      const gitDir = checkpoints.repo.gitDir;
      expect(shadowGit(gitDir, 'rev-parse', 'refs/checkpoints/1').trim()).toBe(record.commit);
      expect(shadowGit(gitDir, 'log', '-1', '--format=%T %P|%s', record.commit).trim()).toBe(`${record.tree} |first`);
      trees.push(record.tree);
      if (name) delete process.env[name];
    }
    expect(new Set(trees).size).toBe(1);
  });
});
