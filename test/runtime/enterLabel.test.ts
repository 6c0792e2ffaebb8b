// How an Enter checkpoint is labelled from what the screen shows (see enterLabel).
import { describe, expect, it } from 'vitest';
import { enterLabel, type LineOnScreen } from '../../src/runtime/checkpointing/enterLabel.js';

const line = (text: string, prompt: string | undefined, outputMeanwhile = false): LineOnScreen => ({ prompt, atEnter: { text, beforeCursor: '', whole: true }, outputMeanwhile });

describe('enterLabel', () => {
  it('takes the line as shown, minus the prompt there before the first key (edits in the middle, history)', () => {
    expect(enterLabel(line('agent$ echo aQXY', 'agent$ '), 'echo aXYQ')).toBe('echo aQXY');
    expect(enterLabel(line('agent$ echo abc', 'agent$ '), '')).toBe('echo abc');
  });

  it("trims an input box's borders and blanks", () => {
    expect(enterLabel(line('│ > fix the failing test                  │', '│ > '), 'fix the failing tset')).toBe('fix the failing test');
    expect(enterLabel(line('┃ hello ┃', '┃ '), 'hello')).toBe('hello');
  });

  it('falls back to the typed text when the screen gives nothing usable', () => {
    // Nothing typed on this line: no prompt was noted.
    expect(enterLabel(line('agent$ ', undefined), '')).toBe('');
    // Only the prompt (a line typed blind, a password).
    expect(enterLabel(line('Password: ', 'Password: '), 'hunter2')).toBe('hunter2');
    // The prompt is gone (the screen was cleared or redrawn).
    expect(enterLabel(line('something else entirely', 'agent$ '), 'ls')).toBe('ls');
    // The start of the line scrolled off the top.
    expect(enterLabel({ prompt: 'agent$ ', atEnter: { text: 'agent$ tail of a long line', beforeCursor: '', whole: false }, outputMeanwhile: false }, 'x')).toBe('x');
  });

  it('takes the typed text when the echo shows only its start (the agent had not caught up)', () => {
    expect(enterLabel(line('agent$ echo crea', 'agent$ '), 'echo created > made.txt')).toBe('echo created > made.txt');
  });

  it('takes the typed text when other output came while typing and stands before it (typeahead, a late prompt)', () => {
    expect(enterLabel(line('lsagent$ ls', '', true), 'ls')).toBe('ls');
    // Without such output, text before the typed part is the line's own (history recalled, then more typed).
    expect(enterLabel(line('agent$ git commit -m fix', 'agent$ '), 'fix')).toBe('git commit -m fix');
  });

  it('keeps a label on one line', () => {
    expect(enterLabel(line('> a\tb', '> '), 'a b')).toBe('a b');
  });
});
