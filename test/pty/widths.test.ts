// One width table for the emulator and for everything Rewind measures (issue 14, item 3):
// Unicode 11 widths as today's terminals and the agents use them, so ✅ takes two columns
// and an agent moving its cursor over a row of a table lands where it means to.
import { describe, expect, it } from 'vitest';
import { screensForTests } from '../helpers/screens.js';
import { cellWidth, charWidth } from '../../src/pty/cellWidth.js';
import { cellWidth as appCellWidth } from '../../src/app/cellWidth.js';
import { cutToWidth, textWidth } from '../../src/app/picker/cut.js';

/** A screen with `data` written and parsed (disposed after each test). */
const anyScreen = screensForTests();
const screenWith = (data: string, cols = 20) => anyScreen(data, cols, 3);

const samples = ['✅ ok', '❌ no', '🙂x', '中文ok', '日本語のテキスト', 'e\u0301te\u0301', '⚠\uFE0F warn', '│ ✅ │ 通过 │', 'plain ascii'];

describe('the width of what an agent writes', () => {
  it('gives ✅ and other wide emoji two columns, as terminals and the agents do', async () => {
    const screen = await screenWith('✅ ok');
    expect(screen.cursor().x).toBe(5);
    expect(charWidth('✅'.codePointAt(0) ?? 0)).toBe(2);
  });

  it('puts a character written over a row of a table in the column the agent addressed (no `✅ fok`)', async () => {
    // The agent redraws one cell of "✅ ok": the column after the space is the "o".
    const screen = await screenWith('✅ ok\x1b[1;4Hf');
    expect(screen.text()[0]).toBe('✅ fk');
    expect(screen.rows()[0]).toBe('✅ fk');
  });

  it('measures text in the renderer exactly as the emulator lays it out', async () => {
    for (const text of samples) {
      const screen = await screenWith(text, 40);
      expect(cellWidth(text), text).toBe(screen.cursor().x);
      expect(appCellWidth(text), text).toBe(screen.cursor().x);
      expect(textWidth(text), text).toBe(screen.cursor().x);
    }
  });

  it('cuts text for the picker to the columns the emulator gives it', () => {
    expect(cutToWidth('✅✅✅ done', 5)).toBe('✅✅…');
    expect(textWidth(cutToWidth('日本語のテキスト', 7))).toBeLessThanOrEqual(7);
  });
});
