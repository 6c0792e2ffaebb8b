import { describe, expect, it } from 'vitest';
import { scrollPieces } from '../../src/pty/scrollKeys.js';

describe('scrollPieces', () => {
  it('finds Shift+PgUp and Shift+PgDn between other keys, which pass unchanged', () => {
    expect(scrollPieces('ab\x1b[5;2~\x1b[5;2~\x1b[A\x1b[6;2~', false)).toEqual([
      { pass: 'ab' },
      { scroll: 'pageUp' },
      { scroll: 'pageUp' },
      { pass: '\x1b[A' },
      { scroll: 'pageDown' },
    ]);
    // Plain PgUp and Ctrl+PgUp are the agent's.
    expect(scrollPieces('\x1b[5~\x1b[5;5~', false)).toEqual([{ pass: '\x1b[5~\x1b[5;5~' }]);
  });

  it('reads the wheel in SGR and X10 reports, with modifiers, only when the mouse is Rewind\'s', () => {
    const x10 = (button: number) => `\x1b[M${String.fromCharCode(32 + button)}!!`;
    expect(scrollPieces(`\x1b[<64;1;1M\x1b[<69;1;1M${x10(64)}${x10(65)}`, true)).toEqual([
      { scroll: 'lines', lines: -3 },
      { scroll: 'lines', lines: 3 },
      { scroll: 'lines', lines: -3 },
      { scroll: 'lines', lines: 3 },
    ]);
    expect(scrollPieces('\x1b[<0;10;2M\x1b[<0;10;2m\x1b[<66;1;1M', true)).toEqual([{ mouse: 'other' }, { mouse: 'other' }, { mouse: 'other' }]);
    expect(scrollPieces('\x1b[<64;1;1M', false)).toEqual([{ pass: '\x1b[<64;1;1M' }]);
  });

  it('passes a cut-off report on as it is', () => {
    expect(scrollPieces('\x1b[<64;1', true)).toEqual([{ pass: '\x1b[<64;1' }]);
    expect(scrollPieces('\x1b[M`', true)).toEqual([{ pass: '\x1b[M`' }]);
  });
});
