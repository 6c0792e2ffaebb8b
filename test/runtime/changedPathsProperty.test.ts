// A step's checkpoint in the app stages only the paths the watcher saw change: every such
// checkpoint must equal a walk of the whole tree at the same moment. Random file operations
// (writes, deletes, renames of files and folders, folders made and removed, symlinks, files
// turned into folders and back, modes, ignored files, .gitignore edits) between the steps
// of the real session's triggers, watcher and engine; each checkpoint compared with a
// snapshot that walks the whole tree at the same moment, into a second store of its own.
import { describe, expect, it } from 'vitest';
import { operate, random } from '../helpers/randomTree.js';
import { watchedSessions } from '../helpers/watchedSession.js';

const openSession = watchedSessions('rewind-scoped-');

// Seeds of 50 steps: one here (50 checkpoints compared), forty in the bench (2,000: REWIND_PROPERTY_RUNS).
const seeds = Math.max(1, Math.ceil(Number(process.env.REWIND_PROPERTY_RUNS ?? 50) / 50));

describe('checkpoints staged from the paths the watcher saw change', () => {
  for (const seed of Array.from({ length: seeds }, (_, i) => i + 1)) {
    it(`equal a walk of the whole tree at every step (seed ${seed}, 50 steps)`, async () => {
      const { root, triggers, engine, walk } = await openSession();
      const next = random(seed);
      const story: string[] = [];
      let scoped = 0;
      for (let step = 0; step < 50; step++) {
        const ops = 1 + Math.floor(next() * 3);
        for (let i = 0; i < ops; i++) story.push(operate(root, next));
        const failed = await triggers.beforeStep({ trigger: 'tool', label: `step ${step}` }, undefined);
        expect(failed).toBeUndefined();
        const newest = engine.list().at(-1);
        if (newest?.fromChangedPaths) scoped++;
        expect({ step, tree: newest?.tree }, `seed ${seed}, after: ${story.join('; ')}`).toEqual({ step, tree: await walk() });
        story.push(`-- checkpoint #${newest?.id}${newest?.fromChangedPaths ? ' (changed paths)' : ''}`);
      }
      // The property is about the narrowed staging: most steps must have used it.
      expect(scoped).toBeGreaterThan(25);
    }, 120_000);
  }
});
