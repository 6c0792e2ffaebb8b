// The pane's terminal answers colour queries (OSC 4, 10, 11, 12 with `?`) as xterm does,
// ended as each query was (BEL or ST), in order with the emulator's other answers.
import { afterEach, describe, expect, it } from 'vitest';
import { ScreenModel } from '../../src/pty/screen.js';
import { colourSpec, DEFAULT_COLOURS, paletteColour, parseColourSpec, type TerminalColours } from '../../src/pty/terminalColours.js';

const screens: ScreenModel[] = [];
const light: TerminalColours = { foreground: { r: 0, g: 0, b: 0 }, background: { r: 255, g: 255, b: 255 }, cursor: { r: 16, g: 32, b: 48 }, palette: new Map([[1, { r: 170, g: 0, b: 1 }]]) };

/** What the screen answers to `pieces`, written one after the other. */
async function answersTo(pieces: string[], colours?: TerminalColours): Promise<string[]> {
  const screen = new ScreenModel(20, 5);
  screens.push(screen);
  if (colours) screen.setColours(colours);
  const answers: string[] = [];
  screen.onResponse((data) => answers.push(data));
  for (const piece of pieces) screen.write(piece);
  await screen.flush();
  return answers;
}

afterEach(() => {
  for (const screen of screens.splice(0)) screen.dispose();
});

describe('colour queries', () => {
  it('the background (OSC 11), ended as asked: BEL or ST', async () => {
    expect(await answersTo(['\x1b]11;?\x07'], light)).toEqual(['\x1b]11;rgb:ffff/ffff/ffff\x07']);
    expect(await answersTo(['\x1b]11;?\x1b\\'], light)).toEqual(['\x1b]11;rgb:ffff/ffff/ffff\x1b\\']);
  });

  it('told nothing, a dark terminal: light grey on black', async () => {
    expect(await answersTo(['\x1b]10;?\x07\x1b]11;?\x07'])).toEqual(['\x1b]10;rgb:e5e5/e5e5/e5e5\x07', '\x1b]11;rgb:0000/0000/0000\x07']);
  });

  it('a query cut anywhere across writes', async () => {
    expect(await answersTo(['\x1b', ']1', '1;', '?\x1b', '\\'], light)).toEqual(['\x1b]11;rgb:ffff/ffff/ffff\x1b\\']);
  });

  it('OSC 10 asking for more than one colour goes on to 11 and 12; the cursor colour (OSC 12)', async () => {
    expect(await answersTo(['\x1b]10;?;?;?\x1b\\'], light)).toEqual(['\x1b]10;rgb:0000/0000/0000\x1b\\', '\x1b]11;rgb:ffff/ffff/ffff\x1b\\', '\x1b]12;rgb:1010/2020/3030\x1b\\']);
  });

  it('palette entries (OSC 4): as told, else xterm\'s', async () => {
    expect(await answersTo(['\x1b]4;1;?;196;?;255;?\x07'], light)).toEqual(['\x1b]4;1;rgb:aaaa/0000/0101\x07', '\x1b]4;196;rgb:ffff/0000/0000\x07', '\x1b]4;255;rgb:eeee/eeee/eeee\x07']);
  });

  it('in order with the emulator\'s own answers (an agent sends DA1 after OSC 11 to tell whether it is answered)', async () => {
    expect(await answersTo(['\x1b]11;?\x1b\\\x1b[c'], light)).toEqual(['\x1b]11;rgb:ffff/ffff/ffff\x1b\\', '\x1b[?1;2c']);
  });

  it('never answers a colour being set, or another OSC', async () => {
    expect(await answersTo(['\x1b]11;#ffffff\x07\x1b]4;1;rgb:00/00/00\x07\x1b]2;?\x07\x1b]111\x07'], light)).toEqual([]);
  });

  it('a query cancelled half way (CAN) is not answered, and the next one is ended as it was', async () => {
    expect(await answersTo(['\x1b]11;?\x18', '\x1b]11;?\x1b\\'], light)).toEqual(['\x1b]11;rgb:ffff/ffff/ffff\x1b\\']);
  });
});

describe('colour specs', () => {
  it('reads what terminals report (1 to 4 hex digits a channel, or #rrggbb) and writes xterm\'s form', () => {
    expect(parseColourSpec('rgb:ffff/ffff/ffff')).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseColourSpec('rgb:1e1e/1e1e/2e2e')).toEqual({ r: 30, g: 30, b: 46 });
    expect(parseColourSpec('rgb:f/8/0')).toEqual({ r: 255, g: 136, b: 0 });
    expect(parseColourSpec('#102030')).toEqual({ r: 16, g: 32, b: 48 });
    expect(parseColourSpec('nonsense')).toBeUndefined();
    expect(colourSpec({ r: 30, g: 30, b: 46 })).toBe('rgb:1e1e/1e1e/2e2e');
    expect(paletteColour(DEFAULT_COLOURS, 16)).toEqual({ r: 0, g: 0, b: 0 });
    expect(paletteColour(DEFAULT_COLOURS, 232)).toEqual({ r: 8, g: 8, b: 8 });
  });
});
