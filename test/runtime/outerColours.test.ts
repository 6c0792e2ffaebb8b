// What the outer terminal answers to the app's colour queries (readOuterColours): its colours,
// the defaults for what it did not tell, and nothing until DA1's answer ends the wait.
import { describe, expect, it } from 'vitest';
import { OUTER_COLOUR_QUERIES, readOuterColours } from '../../src/runtime/session/outerColours.js';
import { DEFAULT_COLOURS } from '../../src/pty/terminalColours.js';

describe('readOuterColours', () => {
  it('waits for DA1\'s answer, which every terminal sends last', () => {
    expect(readOuterColours('\x1b]11;rgb:ffff/ffff/ffff\x1b\\')).toBeUndefined();
  });

  it('takes the colours told, ended by ST or BEL, in any digits a channel', () => {
    const colours = readOuterColours('\x1b]10;rgb:0000/0000/0000\x1b\\\x1b]11;rgb:ff/fe/fd\x07\x1b]4;1;rgb:aaaa/0000/0000\x1b\\\x1b]4;15;#ffffff\x07\x1b[?62;22c');
    expect(colours).toEqual({
      foreground: { r: 0, g: 0, b: 0 },
      background: { r: 255, g: 254, b: 253 },
      cursor: { r: 0, g: 0, b: 0 },
      palette: new Map([
        [1, { r: 170, g: 0, b: 0 }],
        [15, { r: 255, g: 255, b: 255 }],
      ]),
    });
  });

  it('a terminal that tells no colour (only DA1): the defaults', () => {
    expect(readOuterColours('\x1b[?1;2c')).toEqual({ ...DEFAULT_COLOURS, palette: new Map() });
  });

  it('asks for the foreground, background, cursor and 16 base colours (then the keyboard: terminalAnswersKeyboard.test.ts), DA1 last', () => {
    expect(OUTER_COLOUR_QUERIES.startsWith('\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b]12;?\x1b\\\x1b]4;0;?\x1b\\')).toBe(true);
    expect(OUTER_COLOUR_QUERIES).toContain('\x1b]4;15;?\x1b\\');
    expect(OUTER_COLOUR_QUERIES.endsWith('\x1b[c')).toBe(true);
  });
});
