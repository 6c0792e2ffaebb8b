// Erased cells drawn as the terminal holds them (issue 14, item 8): a row an agent shades by
// erasing with a background (`ESC[48;5;238m ESC[K`, Codex's user messages) is drawn by
// erasing with that background too, not by writing spaces: the outer terminal then holds
// the same cells as a bare one (no trailing spaces in a copied selection, the same reflow).
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { ScreenModel } from '../../src/pty/screen.js';

const { Terminal } = xtermHeadless;
type Term = InstanceType<typeof Terminal>;
const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const each of disposables.splice(0)) each.dispose();
});

function write(term: Term | ScreenModel, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

/** Row `y` of `term`, cell by cell: chars (empty = never written or erased) and background. */
function cells(term: Term, y: number): string[] {
  const line = term.buffer.active.getLine(y);
  const out: string[] = [];
  for (let x = 0; x < term.cols; x++) {
    const cell = line?.getCell(x);
    out.push(`${JSON.stringify(cell?.getChars() ?? '')}/${cell?.isBgDefault() ? 'default' : String(cell?.getBgColor())}`);
  }
  return out;
}

/** What `output` leaves on a bare terminal, and on one Rewind draws the emulated rows on. */
async function bareAndDrawn(output: string, cols = 12): Promise<{ bare: Term; drawn: Term }> {
  const bare = new Terminal({ cols, rows: 3, allowProposedApi: true });
  const drawn = new Terminal({ cols, rows: 3, allowProposedApi: true });
  const screen = new ScreenModel(cols, 3);
  disposables.push(bare, drawn, screen);
  await write(bare, output);
  await write(screen, output);
  // As the screen writer draws a row: addressed, erased, the row, the style reset.
  await write(drawn, screen.rows().map((row, y) => `\x1b[${y + 1};1H\x1b[0m\x1b[2K${row}\x1b[0m`).join(''));
  return { bare, drawn };
}

describe('erased cells', () => {
  it('a row erased with a background ends as erased cells of that background, as on a bare terminal', async () => {
    const { bare, drawn } = await bareAndDrawn('\x1b[48;5;238m\x1b[K› hi\x1b[0m\r\nplain');
    expect(cells(drawn, 0)).toEqual(cells(bare, 0));
    expect(cells(drawn, 1)).toEqual(cells(bare, 1));
    expect(cells(bare, 0).at(-1)).toBe('""/238');
  });

  it('keeps written blanks that show a background as written, and the erased tail as erased', async () => {
    const { bare, drawn } = await bareAndDrawn('\x1b[41mab  \x1b[44m\x1b[K\x1b[0m');
    expect(cells(drawn, 0)).toEqual(cells(bare, 0));
  });

  it('erased cells inside a row stay erased, with their background (Codex\'s composer on a known background)', async () => {
    const { bare, drawn } = await bareAndDrawn('\x1b[48;5;234m\x1b[K›\x1b[2X\x1b[2Cnext\x1b[0m');
    expect(cells(drawn, 0)).toEqual(cells(bare, 0));
    expect(cells(bare, 0)[1]).toBe('""/234');
  });

  it('an erased tail of the default background is trimmed, as before', async () => {
    const { bare, drawn } = await bareAndDrawn('text\x1b[K');
    expect(cells(drawn, 0)).toEqual(cells(bare, 0));
  });
});
