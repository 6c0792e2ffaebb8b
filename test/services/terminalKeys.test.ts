// The terminal's answers to doctor's two queries, as they come (test/e2e/doctorKeys.test.ts
// asks a real terminal emulator in a pty): done once DA1's answer is in, the kitty keyboard
// protocol's answer counted only before it.
import { describe, expect, it } from 'vitest';
import { readAnswers } from '../../src/services/doctor/terminalKeys.js';

describe('readAnswers', () => {
  it('waits for DA1, however the answers are split across reads', () => {
    expect(readAnswers('')).toBeUndefined();
    expect(readAnswers('\x1b[?1u')).toBeUndefined();
    expect(readAnswers('\x1b[?1u\x1b[?62;')).toBeUndefined();
    expect(readAnswers('\x1b[?1u\x1b[?62;22c')).toEqual({ answered: true, kittyFlags: 1 });
  });

  it('DA1 alone (xterm.js answers `CSI ? 1 ; 2 c`): no kitty keyboard protocol', () => {
    expect(readAnswers('\x1b[?1;2c')).toEqual({ answered: true, kittyFlags: undefined });
    expect(readAnswers('\x1b[?1;2c\x1b[?0u')).toEqual({ answered: true, kittyFlags: undefined });
  });

  it('a key typed meanwhile does not stand for an answer', () => {
    expect(readAnswers('a\x1b[A')).toBeUndefined();
    expect(readAnswers('a\x1b[?0u\x1b[?64;1c')).toEqual({ answered: true, kittyFlags: 0 });
  });
});
