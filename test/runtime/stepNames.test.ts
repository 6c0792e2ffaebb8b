// How the app's notices name the step a rewind went back to: as the picker's rows name it,
// never by a checkpoint id the rows do not show; the free text quoted, so that a notice cut
// to the terminal's width is never cut inside it.
import { describe, expect, it } from 'vitest';
import type { CheckpointRecord } from '../../src/checkpoints/index.js';
import { conversationCutName, rewindName, stepName } from '../../src/runtime/restore/stepNames.js';
import { demoSteps } from '../app/pickerFixtures.js';

const rows = demoSteps();

/** The redo point a rewind took first, as the engine labels it. */
const redoPoint = (label: string, trigger = 'restore') => ({ id: 9, trigger, label, imported: undefined }) as unknown as CheckpointRecord;

describe('a step named in a notice', () => {
  it('a tool step by its title, a turn by its prompt, a session start without the edits after it, an id no row has as the id', () => {
    expect(stepName(rows, 7)).toBe('“Bash rm -rf tests”');
    expect(stepName(rows, 6)).toBe('prompt “2”');
    expect(stepName([{ ...rows[0], label: 'session start, then edits outside any step: a.txt' } as (typeof rows)[0]], 1)).toBe('“session start”');
    expect(stepName(rows, 5)).toBe('#5');
  });

  it('quotes of its own become plain ones; a long title is cut, on one line', () => {
    const odd = [{ ...rows[6], label: 'Bash echo “hi” > a.txt' } as (typeof rows)[0]];
    expect(stepName(odd, 8)).toBe('“Bash echo "hi" > a.txt”');
    const long = [{ ...rows[6], label: `Bash ${'x'.repeat(80)}` } as (typeof rows)[0]];
    expect(stepName(long, 8)).toMatch(/^“Bash x+…”$/);
    expect(stepName(long, 8).length).toBe(42);
  });
});

describe('where a conversation restore cut the conversation', () => {
  it('before the turn of a step inside it, before a turn, or just before a step in no turn, with the turns dropped as the mode screen counts them', () => {
    expect(conversationCutName(rows, 7)).toBe('to before prompt “2” (1 turn dropped)');
    expect(conversationCutName(rows, 2)).toBe('to before prompt “1” (2 turns dropped)');
    expect(conversationCutName(rows, 1)).toBe('to just before “session start” (2 turns dropped)');
    expect(conversationCutName(rows, 5)).toBe('to where it stood at #5');
  });
});

describe('the rewind an undo undid', () => {
  it('named by the step it went back to, a revert by the step it took back', () => {
    expect(rewindName(rows, redoPoint('before restoring #7'))).toBe('the rewind to just before “Bash rm -rf tests”');
    expect(rewindName(rows, redoPoint('before reverting #8'))).toBe('the revert of “Edit package.json”');
    expect(rewindName(rows, redoPoint('before restoring #6'))).toBe('the rewind to just before prompt “2”');
    expect(rewindName(rows, redoPoint('a label of its own', 'manual'))).toBe('the last rewind');
    expect(rewindName(rows, undefined)).toBe('the last rewind');
  });
});
