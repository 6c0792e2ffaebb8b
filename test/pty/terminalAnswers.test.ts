// The terminal's answers to Rewind's own queries are taken out of its input; keys, pastes and
// other sequences are not.
import { describe, expect, it } from 'vitest';
import { withoutTerminalAnswers } from '../../src/pty/terminalAnswers.js';

const strip = (text: string) => withoutTerminalAnswers(Buffer.from(text, 'latin1')).toString('latin1');

describe('withoutTerminalAnswers', () => {
  it('takes out colour answers (BEL or ST) and device attributes, whatever is around them', () => {
    expect(strip('\x1b]11;rgb:ffff/ffff/ffff\x1b\\')).toBe('');
    expect(strip('a\x1b]10;rgb:0000/0000/0000\x07b\x1b]4;12;rgb:5c5c/ffff/ffff\x1b\\c')).toBe('abc');
    expect(strip('\x1b[?62;22c\x1b[?1;2cx')).toBe('x');
  });

  it('leaves keys, pastes, mouse reports and focus reports as they are', () => {
    for (const keys of ['x', '\x1b', '\x1b\x1b', '\x1b[A', '\x1b[5;2~', '\x1b[200~pasted\x1b[201~', '\x1b[<64;10;5M', '\x1b[I', '\x1b]11;?\x1b\\', 'é']) {
      expect(strip(keys)).toBe(keys);
    }
  });
});
