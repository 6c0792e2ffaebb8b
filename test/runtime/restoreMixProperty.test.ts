// The steps staged from the paths the watcher saw change (some without the shadow index) with
// restores, undos of a restore and reverts among them, as a session mixes them: random file
// operations (changedPathsProperty.test.ts's) between the real session's steps, and now and
// then a restore of an earlier checkpoint (of all of it or of one folder), `redo`, or a revert
// of a step, each run as the app runs them (the watcher paused, told what changed). After
// each, and after each step, the files are walked into a store of their own: a step's new
// checkpoint must equal that walk, and a step that adds none must find the files as they were
// last walked. (What a restore writes is test/restore's: here, what the steps after it stage.)
import { describe, expect, it } from 'vitest';
import { isUserError } from '../../src/shared/errors.js';
import { operate, random } from '../helpers/randomTree.js';
import { watchedSessions } from '../helpers/watchedSession.js';

const openSession = watchedSessions('rewind-mixed-');

// Seeds of 40 steps: one here (40 steps), more in the bench's property runs (REWIND_PROPERTY_RUNS).
const seeds = Math.max(1, Math.ceil(Number(process.env.REWIND_PROPERTY_RUNS ?? 40) / 40));

describe('steps staged from changed paths, with restores, redos and reverts among them', () => {
  for (const seed of Array.from({ length: seeds }, (_, i) => i + 101)) {
    it(`leave every checkpoint equal to a walk of the whole tree (seed ${seed}, 40 steps)`, async () => {
      const { root, triggers: live, engine, walk } = await openSession();
      const next = random(seed);
      const story: string[] = [];
      // The tree the files were last known to be at: a restore's target, a step's checkpoint.
      let known = engine.list().at(-1)?.tree;
      let scoped = 0;
      let mixed = 0;
      // What an operation's redo point (its first new checkpoint: the files just before it) must hold.
      const redoPointHolds = (before: number | undefined, what: string) => {
        const point = engine.list().find((record) => record.id > (before ?? 0));
        if (point) expect({ what, tree: point.tree }, `seed ${seed}, the redo point #${point.id} of ${what}, after: ${story.join('; ')}`).toEqual({ what, tree: known });
      };
      // Right after a restore, often a step that changes nothing and then an undo of it: the
      // undo's redo point is then staged from no changed paths, on top of what the restore left.
      let restoredOnly = false;
      for (let step = 0; step < 40; step++) {
        const roll = restoredOnly && next() < 0.5 ? 0.15 : next();
        const restorable = engine.list().filter((record) => !record.unrestorable);
        const newestBefore = engine.list().at(-1)?.id;
        if (roll < 0.12 && restorable.length > 1) {
          const target = restorable[Math.floor(next() * (restorable.length - 1))];
          if (!target) throw new Error('no target');
          const only = next() < 0.3 ? [['src', 'docs', 'pkg', 'a.txt'][Math.floor(next() * 4)] ?? 'src'] : [];
          try {
            await live.withWatcherPaused((changed) => engine.restore(target.id, { ...changed, ...(only.length > 0 ? { only } : {}) }));
            story.push(`-- restore #${target.id}${only.length > 0 ? ` --only ${only[0]}` : ''}`);
            mixed++;
            restoredOnly = true;
            redoPointHolds(newestBefore, `the restore of #${target.id}`);
          } catch (error) {
            if (!isUserError(error)) throw error;
            story.push(`-- restore #${target.id} refused: ${(error as Error).message}`);
          }
          // Not compared with the target's tree: files the rules then ignored are left alone (test/restore covers what a restore writes).
          known = await walk();
        } else if (roll < 0.18 && (await engine.canUndo())) {
          const { undid } = await live.withWatcherPaused((changed) => engine.redo(changed));
          story.push(`-- redo (back to #${undid})`);
          restoredOnly = false;
          mixed++;
          redoPointHolds(newestBefore, 'the redo');
          known = await walk();
        } else if (roll < 0.24 && restorable.length > 2) {
          const id = restorable[1 + Math.floor(next() * (restorable.length - 1))]?.id ?? 0;
          try {
            await live.withWatcherPaused((changed) => engine.revert(id, changed));
            story.push(`-- revert #${id}`);
            restoredOnly = false;
            mixed++;
            redoPointHolds(newestBefore, `the revert of #${id}`);
          } catch (error) {
            if (!isUserError(error)) throw error;
            story.push(`-- revert #${id} refused: ${(error as Error).message}`);
          }
          known = await walk();
        }
        const before = engine.list().at(-1)?.id;
        // Some steps change nothing: after a restore, the files then stay as it left them.
        const ops = restoredOnly && next() < 0.5 ? 0 : Math.floor(next() * 3);
        if (ops > 0) restoredOnly = false;
        for (let i = 0; i < ops; i++) story.push(operate(root, next));
        const failed = await live.beforeStep({ trigger: 'tool', label: `step ${step}` }, undefined);
        expect(failed).toBeUndefined();
        const newest = engine.list().at(-1);
        const files = await walk();
        if (newest && newest.id !== before) {
          if (newest.fromChangedPaths) scoped++;
          expect({ step, tree: newest.tree }, `seed ${seed}, checkpoint #${newest.id}, after: ${story.join('; ')}`).toEqual({ step, tree: files });
          story.push(`-- checkpoint #${newest.id}${newest.fromChangedPaths ? ' (changed paths)' : ''}`);
        } else {
          expect({ step, tree: known }, `seed ${seed}, no checkpoint at step ${step}, after: ${story.join('; ')}`).toEqual({ step, tree: files });
        }
        known = files;
      }
      // Both must have happened for the run to say anything: steps from changed paths, and restores among them.
      expect(scoped).toBeGreaterThan(10);
      expect(mixed).toBeGreaterThan(2);
    }, 180_000);
  }
});
