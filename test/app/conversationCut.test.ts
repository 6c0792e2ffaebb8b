// Where the mode screen says a conversation restore cuts: before the prompt of the turn the
// step is in (never inside a turn), and how many turns go, as the rebuilt session does.
import { describe, expect, it } from 'vitest';
import { conversationCut } from '../../src/app/picker/conversationCut.js';
import type { PickerCheckpoint } from '../../src/app/picker/types.js';

const row = (id: number, label: string, over: Partial<PickerCheckpoint> = {}): PickerCheckpoint => ({ id, time: '2026-12-06T09:00:00.000Z', label, trigger: 'hook', session: 's1', files: 1, ...over });

const steps: PickerCheckpoint[] = [
  row(1, '1', { kind: 'turn', steps: 1 }),
  row(2, 'Edit a.js', { turn: 1 }),
  row(3, '2', { kind: 'turn', steps: 2 }),
  row(4, 'Edit package.json', { turn: 3 }),
  row(5, 'Bash rm -rf tests', { turn: 3 }),
  row(6, '3', { kind: 'turn', steps: 1 }),
  row(7, 'Write docs/usage.md', { turn: 6 }),
];

describe('conversationCut', () => {
  it("a step of a turn: cut before that turn's prompt, that turn and each later one dropped", () => {
    expect(conversationCut(steps, 5)).toBe('the conversation cut to before prompt "2", whose turn Bash rm -rf tests is in: 2 turns dropped (it and 1 later)');
    expect(conversationCut(steps, 7)).toBe('the conversation cut to before prompt "3", whose turn Write docs/usage.md is in: 1 turn dropped (that one)');
  });

  it("a turn's row: the same cut, named by its prompt", () => {
    expect(conversationCut(steps, 3)).toBe('the conversation cut to before prompt "2": 2 turns dropped (it and 1 later)');
  });

  it('a step in no turn: where the conversation stood just before it, named as its row reads (rows show no ids)', () => {
    const withStart = [row(1, 'session start', { kind: 'start' }), ...steps.map((step) => ({ ...step, id: step.id + 1, ...(step.turn !== undefined ? { turn: step.turn + 1 } : {}) }))];
    expect(conversationCut(withStart, 1)).toBe('the conversation cut to where it stood just before session start: 3 turns after it dropped');
    expect(conversationCut([...steps, row(8, 'rewind to just before prompt "2"', { kind: 'mark' })], 8)).toBe('the conversation cut to where it stood just before rewind to just before prompt "2": no later turn dropped');
  });

  describe('after an earlier conversation restore', () => {
    // The conversation brought back to before prompt "2" (the restore of #3) once #7 was the newest checkpoint.
    const cutBefore2 = [{ to: 3, after: 7 }];

    it('counts the turns the conversation holds now: one an earlier restore dropped is not dropped again', () => {
      expect(conversationCut(steps, 1, cutBefore2)).toBe('the conversation cut to before prompt "1": 1 turn dropped (that one)');
      expect(conversationCut(steps, 3, cutBefore2)).toBe('the conversation cut to before prompt "2": no turn dropped (the conversation stands there already)');
      expect(conversationCut(steps, 5, cutBefore2)).toBe('the conversation cut to before prompt "2", whose turn Bash rm -rf tests is in: no turn dropped (the conversation stands there already)');
    });

    it('says which turns come back: a cut after one the earlier restore dropped holds it again', () => {
      expect(conversationCut(steps, 6, cutBefore2)).toBe('the conversation cut to before prompt "3": no turn dropped, 1 turn back (an earlier rewind dropped it)');
      expect(conversationCut(steps, 6, [{ to: 1, after: 7 }])).toBe('the conversation cut to before prompt "3": no turn dropped, 2 turns back (an earlier rewind dropped them)');
    });

    it('counts a turn taken after that restore, which follows what it left', () => {
      const later = [...steps, row(8, '4', { kind: 'turn', steps: 0 })];
      expect(conversationCut(later, 1, cutBefore2)).toBe('the conversation cut to before prompt "1": 2 turns dropped (it and 1 later)');
      expect(conversationCut(later, 3, cutBefore2)).toBe('the conversation cut to before prompt "2": 1 turn dropped');
      expect(conversationCut(later, 8, cutBefore2)).toBe('the conversation cut to before prompt "4": 1 turn dropped (that one)');
    });

    it("replays them in order: a second restore starts from what the first left", () => {
      // Back to before prompt "3" (#6, after #8's turn), which held turns 1 and 2: turn 2 is back, turn 4 gone.
      const later = [...steps, row(8, '4', { kind: 'turn', steps: 0 })];
      const twice = [{ to: 6, after: 8 }, ...cutBefore2];
      expect(conversationCut(later, 1, twice)).toBe('the conversation cut to before prompt "1": 2 turns dropped (it and 1 later)');
      expect(conversationCut(later, 8, twice)).toBe('the conversation cut to before prompt "4": 1 turn dropped');
      expect(conversationCut(later, 6, twice)).toBe('the conversation cut to before prompt "3": no turn dropped (the conversation stands there already)');
    });

    it('takes a restore to a checkpoint that is no row (folded) as one to the row it is in', () => {
      const unfolded = steps.filter((step) => step.id !== 4);
      expect(conversationCut(unfolded, 1, [{ to: 4, after: 7 }])).toBe(conversationCut(unfolded, 1, cutBefore2));
      expect(conversationCut(unfolded, 1, [{ to: 4, after: 7 }])).toBe('the conversation cut to before prompt "1": 1 turn dropped (that one)');
    });

    it("leaves other sessions' turns and a restore to a checkpoint no longer listed alone", () => {
      const other = steps.map((step) => ({ ...step, id: step.id + 10, session: 's2', ...(step.turn !== undefined ? { turn: step.turn + 10 } : {}) }));
      expect(conversationCut([...steps, ...other], 11, cutBefore2)).toBe('the conversation cut to before prompt "1": 3 turns dropped (it and 2 later)');
      expect(conversationCut([...steps, row(9, '4', { kind: 'turn', session: 's2' })], 9, cutBefore2)).toBe('the conversation cut to before prompt "4": 1 turn dropped (that one)');
      // Pruned: older than every row listed.
      const later = steps.map((step) => ({ ...step, id: step.id + 10, ...(step.turn !== undefined ? { turn: step.turn + 10 } : {}) }));
      expect(conversationCut(later, 11, [{ to: 3, after: 17 }])).toBe('the conversation cut to before prompt "1": 3 turns dropped (it and 2 later)');
    });
  });
});
