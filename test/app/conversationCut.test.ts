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
});
