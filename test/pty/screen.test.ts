import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScreenModel } from '../../src/pty/screen.js';

const screens: ScreenModel[] = [];

/** A screen with `data` written and parsed. */
async function screenWith(data: string, cols = 20, rows = 5): Promise<ScreenModel> {
  const screen = new ScreenModel(cols, rows);
  screens.push(screen);
  screen.write(data);
  await screen.flush();
  return screen;
}

afterEach(() => {
  for (const screen of screens.splice(0)) screen.dispose();
});

describe('ScreenModel rows', () => {
  it('gives plain text rows with trailing blanks trimmed', async () => {
    const screen = await screenWith('hello   \r\nworld\r\n');
    expect(screen.rows()).toEqual(['hello', 'world', '', '', '']);
    expect(screen.text()).toEqual(['hello', 'world', '', '', '']);
  });

  it('draws 16, 256 and truecolor foregrounds and backgrounds', async () => {
    const screen = await screenWith(
      '\x1b[31mr\x1b[92mg\x1b[0m \x1b[44mb\x1b[0m\r\n' +
        '\x1b[38;5;196mx\x1b[48;5;21my\x1b[0m\r\n' +
        '\x1b[38;2;1;2;3mt\x1b[48;2;250;128;0mu\x1b[39;49mv',
    );
    expect(screen.rows().slice(0, 3)).toEqual([
      '\x1b[31mr\x1b[92mg\x1b[0m \x1b[44mb\x1b[0m',
      '\x1b[38;5;196mx\x1b[48;5;21my\x1b[0m',
      '\x1b[38;2;1;2;3mt\x1b[48;2;250;128;0mu\x1b[0mv',
    ]);
  });

  it('draws bold, dim, italic, underline, inverse, strikethrough and invisible', async () => {
    const screen = await screenWith('\x1b[1ma\x1b[2mb\x1b[22;3mc\x1b[23;4md\x1b[24;7me\x1b[27;9mf\x1b[29;8mg\x1b[0mh');
    expect(screen.rows()[0]).toBe('\x1b[1ma\x1b[2mb\x1b[22;3mc\x1b[23;4md\x1b[24;7me\x1b[27;9mf\x1b[29;8mg\x1b[0mh');
  });

  it('draws blink and overline (vttest: the graphic rendition pattern)', async () => {
    const screen = await screenWith('\x1b[5ma\x1b[53mb\x1b[25mc\x1b[55md\x1b[53m \x1b[0m');
    expect(screen.rows()[0]).toBe('\x1b[5ma\x1b[53mb\x1b[25mc\x1b[0md\x1b[53m \x1b[0m');
  });

  it('writes nothing to the console, which is the user\'s screen, for output xterm takes for an error (a DEL)', async () => {
    const logged = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => undefined));
    try {
      const screen = await screenWith('a\x7fb');
      expect(screen.rows()[0]).toBe('ab');
      for (const spy of logged) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of logged) spy.mockRestore();
    }
  });

  it('turns one of bold and dim off without losing the other', async () => {
    const screen = await screenWith('\x1b[1;2ma\x1b[22;2mb\x1b[0m');
    expect(screen.rows()[0]).toBe('\x1b[1;2ma\x1b[22;2mb\x1b[0m');
  });

  it('emits a sequence only where the style changes, and resets at the end of a styled row', async () => {
    const screen = await screenWith('\x1b[1;31mred\x1b[1;31m bold\r\n\x1b[0mplain');
    expect(screen.rows().slice(0, 2)).toEqual(['\x1b[1;31mred bold\x1b[0m', 'plain']);
  });

  it('keeps trailing cells that show a background, trims plain ones', async () => {
    const screen = await screenWith('a\x1b[41m  \x1b[0m   ');
    expect(screen.rows()[0]).toBe('a\x1b[41m  \x1b[0m');
  });

  it('draws wide CJK characters once and keeps combining marks', async () => {
    const screen = await screenWith('中文ok\r\ne\u0301te\u0301');
    expect(screen.rows().slice(0, 2)).toEqual(['中文ok', 'e\u0301te\u0301']);
    expect(screen.cursor()).toEqual({ x: 3, y: 1, visible: true }); // é is one cell
  });

  it('renders the active viewport after the output scrolled', async () => {
    const screen = await screenWith(Array.from({ length: 8 }, (_, i) => `line ${i}`).join('\r\n'));
    expect(screen.rows()).toEqual(['line 3', 'line 4', 'line 5', 'line 6', 'line 7']);
    expect(screen.cursor()).toEqual({ x: 6, y: 4, visible: true });
  });
});

describe('ScreenModel rows between frames', () => {
  /** Output and resizes, applied in order; rows() is read after each step. */
  type Step = string | { cols: number; rows: number };
  const steps: Step[] = [
    'one\r\ntwo\r\n\x1b[31mthree\x1b[0m\r\nfour',
    '\x1b[2;1Hchanged\x1b[K',
    Array.from({ length: 12 }, (_, i) => `line ${i}\r\n`).join(''), // scrolls into scrollback
    '\x1b[2;4r\x1b[3;1H\x1b[S', // scroll region, scroll up
    '\x1b[T\x1b[r', // scroll down, region reset
    '\x1b[2;1H\x1b[L\x1b[4;1H\x1b[M', // insert line, delete line
    '\x1b[1;3H\x1b[2@\x1b[5;2H\x1b[3P', // insert and delete characters
    '\x1b[H\x1bM\x1bM', // reverse index at the top
    '\x1b[3;5H\x1b[1J', // erase above
    '中文\u0301 wide',
    '\x1b[?1049h\x1b[2Jalt \x1b[7mscreen\x1b[0m',
    { cols: 14, rows: 4 },
    'after resize, wrapping past the edge',
    '\x1b[?1049l',
    { cols: 20, rows: 5 },
    '\x1b[3;1H\x1b[0J',
    '\x1bcreset',
    // Rows rewritten: with the same cells, with the same text in other colours, and cells
    // whose look is kept beside them (a combining mark, an underline style).
    '\x1b[1;1Hsame\x1b[2;1H\x1b[31mred\x1b[0m\x1b[3;1He\u0301 mark\x1b[4;1H\x1b[4:3mcurly\x1b[0m',
    '\x1b[1;1Hsame\x1b[2;1H\x1b[32mred\x1b[0m',
    '\x1b[3;1He\u0300 mark',
    '\x1b[4;1H\x1b[4:1mcurly\x1b[0m',
  ];

  it('gives what a fresh screen fed the same output gives, after every step', async () => {
    const screen = new ScreenModel(20, 5);
    screens.push(screen);
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i] as Step;
      if (typeof step === 'string') screen.write(step);
      else screen.resize(step.cols, step.rows);
      await screen.flush();
      const fresh = new ScreenModel(20, 5);
      screens.push(fresh);
      for (const earlier of steps.slice(0, i + 1)) {
        if (typeof earlier === 'string') fresh.write(earlier);
        else fresh.resize(earlier.cols, earlier.rows);
        await fresh.flush();
      }
      expect(screen.rows(), `after step ${i}: ${JSON.stringify(step)}`).toEqual(fresh.rows());
    }
  });

  it('returns rows the caller may keep: a later frame does not change an earlier one', async () => {
    const screen = await screenWith('first');
    const before = screen.rows();
    screen.write('\rsecond');
    await screen.flush();
    expect(screen.rows()[0]).toBe('second');
    expect(before[0]).toBe('first');
  });
});

describe('ScreenModel cursor and modes', () => {
  it('tracks the cursor position and ?25l / ?25h', async () => {
    const screen = await screenWith('ab\x1b[3;5H\x1b[?25l');
    expect(screen.cursor()).toEqual({ x: 4, y: 2, visible: false });
    screen.write('\x1b[?25h');
    await screen.flush();
    expect(screen.cursor().visible).toBe(true);
    screen.write('\x1b[?25l\x1bc');
    await screen.flush();
    expect(screen.cursor()).toEqual({ x: 0, y: 0, visible: true });
  });

  it('shows the alternate screen while it is active, then the normal one again', async () => {
    const screen = await screenWith('shell prompt$ ');
    screen.write('\x1b[?1049h\x1b[H\x1b[2Jvim here\x1b[5;1H~');
    await screen.flush();
    expect(screen.modes().alternateScreen).toBe(true);
    expect(screen.rows()).toEqual(['vim here', '', '', '', '~']);
    screen.write('\x1b[?1049l');
    await screen.flush();
    expect(screen.modes().alternateScreen).toBe(false);
    expect(screen.rows()[0]).toBe('shell prompt$');
    expect(screen.cursor()).toEqual({ x: 14, y: 0, visible: true });
  });

  it('resizes', async () => {
    const screen = await screenWith('0123456789');
    screen.resize(6, 3);
    expect(screen.size()).toEqual({ cols: 6, rows: 3 });
    expect(screen.rows()).toHaveLength(3);
    screen.write('\r\nabcdefghij');
    await screen.flush();
    expect(screen.text()[2]).toBe('ghij');
    screen.resize(30, 4);
    expect(screen.size()).toEqual({ cols: 30, rows: 4 });
    expect(screen.rows()).toHaveLength(4);
  });

  it('reports the modes a child sets', async () => {
    const screen = await screenWith('');
    expect(screen.modes()).toEqual({
      applicationCursorKeys: false,
      bracketedPaste: false,
      mouseTracking: 'none',
      sgrMouse: false,
      focusEvents: false,
      kittyFlags: 0,
      modifyOtherKeys: undefined,
      alternateScreen: false,
    });
    screen.write('\x1b[?1h\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[?1004h\x1b[>1u\x1b[>4;2m');
    await screen.flush();
    expect(screen.modes()).toEqual({
      applicationCursorKeys: true,
      bracketedPaste: true,
      mouseTracking: 'vt200',
      sgrMouse: true,
      focusEvents: true,
      kittyFlags: 1,
      modifyOtherKeys: 2,
      alternateScreen: false,
    });
    screen.write('\x1b[?1003h\x1b[?1006l');
    await screen.flush();
    expect(screen.modes()).toMatchObject({ mouseTracking: 'any', sgrMouse: false });
    screen.write('\x1b[?1l\x1b[?2004l\x1b[?1003l');
    await screen.flush();
    expect(screen.modes()).toMatchObject({ applicationCursorKeys: false, bracketedPaste: false, mouseTracking: 'none' });
  });

  it('answers a cursor position query through onResponse', async () => {
    const screen = new ScreenModel(20, 5);
    screens.push(screen);
    const answers: string[] = [];
    const stop = screen.onResponse((data) => answers.push(data));
    screen.write('abc\r\nde\x1b[6n');
    await screen.flush();
    expect(answers).toEqual(['\x1b[2;3R']);
    stop();
    screen.write('\x1b[6n');
    await screen.flush();
    expect(answers).toHaveLength(1);
  });

  it('reports the bell the child rings, once per BEL', async () => {
    const screen = new ScreenModel(20, 5);
    screens.push(screen);
    let bells = 0;
    screen.onBell(() => (bells += 1));
    screen.write('done\x07 and again\x07');
    await screen.flush();
    expect(bells).toBe(2);
  });
});

// DECCOLM in the pane: as xterm once the switch is allowed (?40h), the screen is cleared and the
// cursor homed (the width stays the outer terminal's); not allowed, nothing happens.
describe('ScreenModel DECCOLM (?3h / ?3l)', () => {
  it('clears the screen and homes the cursor once ?40h allowed the switch, in order with the output around it', async () => {
    for (const mode of ['\x1b[?3l', '\x1b[?3h', '\x1b[?40;3h']) {
      const allow = mode.includes('40') ? '' : '\x1b[?40h';
      const screen = await screenWith(`${allow}one\r\ntwo\r\nthree${mode}X`, 20, 4);
      expect(screen.text(), mode).toEqual(['X', '', '', '']);
      expect(screen.cursor()).toMatchObject({ x: 1, y: 0 });
      expect(screen.size().cols).toBe(20);
    }
  });

  it('homes the cursor to the top of the scroll region in origin mode', async () => {
    const screen = await screenWith('\x1b[?40h\x1b[2;3r\x1b[?6hab\x1b[?3lX', 20, 4);
    expect(screen.text()).toEqual(['', 'X', '', '']);
  });

  it('changes nothing while the switch is not allowed (never, or ?40l, or after a reset)', async () => {
    for (const before of ['', '\x1b[?40h\x1b[?40l', '\x1b[?40h\x1bc']) {
      const screen = await screenWith(`${before}one\r\ntwo\x1b[?3lX`, 20, 4);
      expect(screen.text(), JSON.stringify(before)).toEqual(['one', 'twoX', '', '']);
    }
  });
});

describe('ScreenModel cursor line', () => {
  it('gives the line the cursor is on, with the rows it wrapped onto, and its part left of the cursor', async () => {
    // 10 columns: the line wraps onto a second and a third row; the cursor ends on the second.
    const screen = await screenWith('out\r\n$ abcdefghijklmnopqrstu\x1b[2A\x1b[3G', 10, 5);
    expect(screen.text()).toEqual(['out', '$ abcdefgh', 'ijklmnopqr', 'stu', '']);
    expect(screen.cursor()).toMatchObject({ x: 2, y: 1 });
    expect(screen.cursorLine()).toEqual({ text: '$ abcdefghijklmnopqrstu', beforeCursor: '$ ', whole: true });
    screen.write('\x1b[3;5H');
    await screen.flush();
    expect(screen.cursorLine()).toEqual({ text: '$ abcdefghijklmnopqrstu', beforeCursor: '$ abcdefghijkl', whole: true });
  });

  it('says when the start of the line has scrolled off the top', async () => {
    const screen = new ScreenModel(10, 2, 0);
    screens.push(screen);
    // Longer than the screen and the few screens kept above it for reflow.
    const typed = `$ ${'abcdefghijklmnopqrstu'.repeat(5)}`;
    screen.write(typed);
    await screen.flush();
    const line = screen.cursorLine();
    expect(line.whole).toBe(false);
    expect(line.text.length).toBeLessThan(typed.length);
    expect(typed.endsWith(line.text)).toBe(true);
  });
});

/** `count` numbered lines: `line 1` … */
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}\r\n`).join('');

describe('ScreenModel scrollback', () => {
  it('scrolls back within what it keeps, stays put while output comes, and goes back to live', async () => {
    const screen = new ScreenModel(20, 5, 30);
    screens.push(screen);
    screen.write(numbered(50));
    await screen.flush();
    expect(screen.hasScrollback()).toBe(true);
    expect(screen.scroll(-100)).toBe(true);
    // 30 lines kept above the screen: lines 1 to 16 are gone.
    expect(screen.scrolledBack()).toBe(30);
    expect(screen.text()[0]).toBe('line 17');
    expect(screen.scroll(-1)).toBe(false);
    screen.scroll(2);
    screen.write('more\r\n');
    await screen.flush();
    // The scrollback is full: the oldest line goes, the view keeps showing the same lines
    // (xterm's rule; a view at the very top would move on with the lines dropped).
    expect(screen.text()[0]).toBe('line 19');
    expect(screen.scrolledBack()).toBe(29);
    expect(screen.scrollToLive()).toBe(true);
    expect(screen.scrolledBack()).toBe(0);
    expect(screen.text()).toEqual(['line 48', 'line 49', 'line 50', 'more', '']);
    expect(screen.scrollToLive()).toBe(false);
  });

  it('has no scrollback on the alternate screen, and is live when the normal screen comes back', async () => {
    const screen = await screenWith(numbered(20));
    screen.scroll(-4);
    screen.write('\x1b[?1049hfull');
    await screen.flush();
    expect(screen.scrolledBack()).toBe(0);
    expect(screen.hasScrollback()).toBe(false);
    expect(screen.scroll(-2)).toBe(false);
    screen.write('\x1b[?1049l');
    await screen.flush();
    expect(screen.scrolledBack()).toBe(0);
    expect(screen.text()[3]).toBe('line 20');
  });

  it('with a scrollback of 0, a resize narrower then back wider still reflows as a terminal does: the last row stays at the bottom', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1).padStart(2, '0')} ${'0'.repeat(51)}\r\n`).join('');
    const screen = new ScreenModel(80, 24, 0);
    screens.push(screen);
    screen.write(`${lines}> box`);
    await screen.flush();
    const before = screen.text();
    expect(before.at(-1)).toBe('> box');
    screen.resize(40, 24);
    await screen.flush();
    expect(screen.text().at(-1)).toBe('> box');
    screen.resize(80, 24);
    await screen.flush();
    expect(screen.text()).toEqual(before);
    expect(screen.cursor()).toMatchObject({ x: 5, y: 23 });
    // The lines kept for the reflow are not the user's to scroll to, nor in the last words.
    expect(screen.hasScrollback()).toBe(false);
    expect(screen.scroll(-3)).toBe(false);
    expect(screen.lastWords().startsWith('line 08 ')).toBe(true);
  });

  it('keeps none with a scrollback of 0', async () => {
    const screen = new ScreenModel(20, 5, 0);
    screens.push(screen);
    screen.write(numbered(20));
    await screen.flush();
    expect(screen.hasScrollback()).toBe(false);
    expect(screen.scroll(-3)).toBe(false);
  });
});

describe('ScreenModel lastWords', () => {
  it('is what the normal screen shows, scrollback included, with colours, then the cursor where it was', async () => {
    const screen = await screenWith(`${numbered(7)}\x1b[32mgreen\x1b[0m\r\n$ `);
    expect(screen.lastWords()).toBe(`${numbered(7)}\x1b[32mgreen\x1b[0m\r\n$\r\x1b[2C`);
  });

  it('starts after the last clear of the normal screen, not at what the alternate screen showed', async () => {
    const screen = await screenWith(`${numbered(9)}\x1b[H\x1b[2Jafter\r\n\x1b[?1049hfull screen\x1b[?1049lresume 42\r\n`);
    expect(screen.lastWords()).toBe('after\r\nresume 42\r\n\r');
    const cleared = await screenWith('old\r\n\x1b[2J\x1b[3;1Hlow\r\n');
    expect(cleared.lastWords()).toBe('\r\n\r\nlow\r\n\r');
  });

  it('writes a row that wraps to the edge, so it wraps the same way (and reflows as one line)', async () => {
    const screen = await screenWith(`${'x'.repeat(18)}  ab\r\nnext`);
    expect(screen.lastWords()).toBe(`${'x'.repeat(18)}  ab\r\nnext\r\x1b[4C`);
  });

  it('puts the cursor back above output drawn below it, and is empty for an untouched screen', async () => {
    expect((await screenWith('top\r\n\r\nbottom\x1b[1;2H')).lastWords()).toBe('top\r\n\r\nbottom\x1b[2A\r\x1b[1C');
    expect((await screenWith('')).lastWords()).toBe('');
  });
});

describe('hyperlinks (OSC 8)', () => {
  it('are drawn as the child made them: the linked cells inside the same OSC 8, closed before the row ends', async () => {
    const screen = await screenWith('see \x1b]8;;https://example.com/a\x1b\\docs\x1b]8;;\x1b\\ and \x1b]8;id=x;file:///tmp/b\x07\x1b[1mb\x1b]8;;\x07\x1b[0m', 30);
    expect(screen.rows()[0]).toBe('see \x1b]8;;https://example.com/a\x1b\\docs\x1b]8;;\x1b\\ and \x1b[1m\x1b]8;id=x;file:///tmp/b\x1b\\b\x1b]8;;\x1b\\\x1b[0m');
    expect(screen.text()[0]).toBe('see docs and b');
  });

  it('a link running to the end of the row is closed there, and opened again on the next', async () => {
    const screen = await screenWith('\x1b]8;;https://e.com\x1b\\abcdefgh\x1b]8;;\x1b\\', 5);
    expect(screen.rows().slice(0, 2)).toEqual(['\x1b]8;;https://e.com\x1b\\abcde\x1b]8;;\x1b\\', '\x1b]8;;https://e.com\x1b\\fgh\x1b]8;;\x1b\\']);
  });
});

