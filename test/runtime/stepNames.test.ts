// How the app's notices name the step a rewind went back to: as the picker's rows name it,
// never by a checkpoint id the rows do not show; the free text quoted, so that a notice cut
// to the terminal's width is never cut inside it.
import { describe, expect, it } from 'vitest';
import type { CheckpointRecord } from '../../src/checkpoints/index.js';
import { conversationCutName, filesAndConversationName, rewindName, stepName } from '../../src/runtime/restore/stepNames.js';
import { demoSteps } from '../app/pickerFixtures.js';

const rows = demoSteps();

/** A checkpoint record as the engine labels it (the fields the names read). */
const record = (id: number, label: string, trigger = 'restore') => ({ id, trigger, label }) as unknown as CheckpointRecord;

/** The undo's name for the rewind whose redo point (#20) is labelled `label`, `more` the records before it. */
const undone = (label: string, more: CheckpointRecord[] = []) => rewindName(rows, [...more, record(20, label)], 20);

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

  it('counts from the conversation an earlier restore left: its dropped turns not again, those it brings back said', () => {
    // The conversation was brought back to before prompt "2" (#7's restore) with #8 the newest.
    const before2 = [{ to: 7, after: 8 }];
    expect(conversationCutName(rows, 2, before2)).toBe('to before prompt “1” (1 turn dropped)');
    expect(conversationCutName(rows, 6, before2)).toBe('to before prompt “2” (no later turn dropped)');
    // A turn checkpointed before that restore (#9): cut before it, the conversation holds prompt “2” again.
    expect(conversationCutName([...rows, { ...rows[4], id: 9, label: '3', steps: 0 } as (typeof rows)[0]], 9, [{ to: 7, after: 9 }])).toBe('to before prompt “3” (no later turn dropped, 1 turn back)');
    expect(filesAndConversationName(rows, 7, before2)).toBe('the files to just before “Bash rm -rf tests” and the conversation to before prompt “2” (no later turn dropped)');
  });

  it('with the files: one point when both go back to it (a turn, a step in no turn), else each named', () => {
    expect(filesAndConversationName(rows, 7)).toBe('the files to just before “Bash rm -rf tests” and the conversation to before prompt “2” (1 turn dropped)');
    expect(filesAndConversationName(rows, 6)).toBe('the files and the conversation to before prompt “2” (1 turn dropped)');
    expect(filesAndConversationName(rows, 1)).toBe('the files and the conversation to just before “session start” (2 turns dropped)');
  });
});

describe('the rewind an undo undid', () => {
  it('named by the step it went back to, a revert by the step it took back (a turn: its turn), its redo point moved onto raced writes or not', () => {
    expect(undone('before restoring #7')).toBe('the rewind to just before “Bash rm -rf tests”');
    expect(undone('before reverting #8')).toBe('the revert of “Edit package.json”');
    expect(undone('before reverting #6')).toBe('the revert of the turn of prompt “2”');
    expect(undone('before restoring #6')).toBe('the rewind to just before prompt “2”');
    // The redo point moved onto writes that raced the restore: still that restore's.
    expect(undone('written while restoring #7: a.txt')).toBe('the rewind to just before “Bash rm -rf tests”');
    // A revert restores its result (#19): the raced writes name that one, which names the step taken back.
    expect(undone('written while restoring #19: a.txt', [record(19, 'after reverting #8', 'revert')])).toBe('the revert of “Edit package.json”');
    expect(undone('a label of its own', [])).toBe('the last rewind');
    expect(rewindName(rows, [], 20)).toBe('the last rewind');
  });
});
