// The picker's `u` (issue 28): the selected step's revert plan, then y (no conflict), or k / m
// (conflicts: nothing is chosen by Enter), or Esc back; a step that cannot be reverted says why.
import { afterEach, describe, expect, it } from 'vitest';
import type { PickerRevertPlan } from '../../src/app/picker/types.js';
import { openPicker } from './openPicker.js';
import { KEY, type Rendered } from './renderWait.js';

const opened: Rendered[] = [];
afterEach(() => {
  for (const view of opened.splice(0)) view.unmount();
});

const clean: PickerRevertPlan = { lines: ['1 file(s) change, keeping what came after:', '  restore   a.txt  (as it was before the step)'], conflicts: 0 };
const conflicted: PickerRevertPlan = {
  lines: ['1 file(s) change, 1 conflict(s), keeping what came after:', '  conflict  f.txt  (the step and a later change changed the same lines)', '      <<<<<<< now'],
  conflicts: 1,
};

function open(plan: PickerRevertPlan | Error) {
  const loads: number[] = [];
  const loadRevertPlan = (id: number) => {
    loads.push(id);
    return plan instanceof Error ? Promise.reject(plan) : Promise.resolve(plan);
  };
  return openPicker(opened, { loadRevertPlan }).then((picker) => ({ ...picker, loads }));
}

describe("Picker: a step's revert", () => {
  it('u shows the plan; y reverts that step; Esc goes back first', async () => {
    const { view, keys, chosen, loads } = await open(clean);
    await view.waitForFrame((f) => f.includes('u revert'));
    keys.press('u');
    let frame = await view.waitForFrame((f) => f.includes('restore   a.txt'));
    expect(frame).toContain('revert step 20 alone: keep what came after');
    expect(frame).toContain('y or Enter revert');
    keys.press(KEY.esc);
    frame = await view.waitForFrame((f) => f.includes('u revert'));
    expect(frame).not.toContain('restore   a.txt');
    keys.press('u');
    await view.waitForFrame((f) => f.includes('restore   a.txt'));
    keys.press('y');
    await view.waitForFrame(() => chosen.length === 1);
    expect(chosen).toEqual([{ kind: 'revert', id: 20 }]);
    // Worked out afresh at each u: the files may have changed in between.
    expect(loads).toEqual([20, 20]);
  });

  it('with conflicts Enter chooses nothing (it says why); k keeps them, m writes markers', async () => {
    for (const [key, conflicts] of [
      ['k', 'keep'],
      ['m', 'markers'],
    ] as const) {
      const { view, keys, chosen } = await open(conflicted);
      keys.press('u');
      await view.waitForFrame((f) => f.includes('k: conflicted stay as they are · m: conflict markers'));
      keys.press(KEY.enter);
      await view.waitForFrame((f) => f.includes('1 file(s) conflict: k keeps them as they are, m writes markers'));
      expect(chosen).toEqual([]);
      keys.press(key);
      await view.waitForFrame(() => chosen.length === 1);
      expect(chosen).toEqual([{ kind: 'revert', id: 20, conflicts }]);
    }
  });

  it('wraps a sentence too long for the width, never cuts it; a conflict\'s own lines are cut as a diff\'s', async () => {
    const undoes = '  your files as they are now are checkpointed first: /redo (or Esc Esc → undo last rewind) undoes it';
    const hunk = `      ${'x'.repeat(120)}`;
    const { view, keys } = await open({ lines: [...conflicted.lines, hunk, undoes], conflicts: 1 });
    keys.press('u');
    const frame = await view.waitForFrame((f) => f.includes('undoes it'));
    const lines = frame.split('\n').map((line) => line.replace(/^│ ?|│$/g, '').trimEnd());
    const at = lines.findIndex((line) => line.includes('your files as they are now'));
    expect(lines[at]).toBe('  your files as they are now are checkpointed first: /redo (or Esc Esc →');
    expect(lines[at + 1]).toBe('    undo last rewind) undoes it');
    expect(frame).toContain('  conflict  f.txt  (the step and a later change changed the same lines)');
    expect(lines.find((line) => line.includes('xxxx'))).toMatch(/^ {6}x+…$/);
  });

  it('a step that cannot be reverted says why, and y does nothing', async () => {
    const { view, keys, chosen } = await open({ lines: [], conflicts: 0, error: 'the step of #20 changed no files' });
    keys.press('u');
    await view.waitForFrame((f) => f.includes('this step cannot be reverted: the step of #20 changed no files'));
    keys.press('y');
    keys.press(KEY.esc);
    await view.waitForFrame((f) => f.includes('u revert'));
    expect(chosen).toEqual([]);
  });

  it('u types into a filter already begun', async () => {
    const { view, keys, loads } = await open(clean);
    keys.press('s');
    await view.waitForFrame((f) => f.includes('filter: s'));
    keys.press('u');
    await view.waitForFrame((f) => f.includes('filter: su'));
    expect(loads).toEqual([]);
  });
});
