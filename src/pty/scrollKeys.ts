/**
 * The keys and mouse reports that scroll the pane back through its scrollback, found in
 * what the user typed. Pure: the caller decides when they are Rewind's (see PaneScroll).
 */

/** One piece of typed input: a scroll of the pane, or bytes that go on to the agent as they are. */
export type ScrollPiece = { scroll: 'pageUp' | 'pageDown' } | { scroll: 'lines'; lines: number } | { mouse: 'other' } | { pass: string };

/** Lines one notch of the wheel scrolls, as most terminals do. */
export const WHEEL_LINES = 3;

const SHIFT_PAGE_UP = '\x1b[5;2~';
const SHIFT_PAGE_DOWN = '\x1b[6;2~';

/**
 * Shift+PgUp, Shift+PgDn and (when `mouse`: Rewind asked for mouse reports, the agent did
 * not) mouse reports, SGR (`ESC [ < b ; x ; y M`) or X10 (`ESC [ M` and three bytes), in
 * `input`, a binary string (one character per byte, as read). The wheel scrolls
 * WHEEL_LINES a notch (modifiers ignored); other mouse events are `{ mouse: 'other' }`: not
 * for the agent, which never asked for them. The rest is `pass`, in order and unchanged.
 */
export function scrollPieces(input: string, mouse: boolean): ScrollPiece[] {
  const pieces: ScrollPiece[] = [];
  let pass = '';
  const take = (piece: ScrollPiece) => {
    if (pass !== '') pieces.push({ pass });
    pass = '';
    pieces.push(piece);
  };
  let i = 0;
  while (i < input.length) {
    if (input.startsWith(SHIFT_PAGE_UP, i) || input.startsWith(SHIFT_PAGE_DOWN, i)) {
      take({ scroll: input.startsWith(SHIFT_PAGE_UP, i) ? 'pageUp' : 'pageDown' });
      i += SHIFT_PAGE_UP.length;
      continue;
    }
    if (mouse && input.startsWith('\x1b[<', i)) {
      const report = /^(\d+);\d+;\d+[Mm]/.exec(input.slice(i + 3, i + 32));
      if (report) {
        take(wheel(Number(report[1])));
        i += 3 + report[0].length;
        continue;
      }
    }
    if (mouse && input.startsWith('\x1b[M', i) && i + 6 <= input.length) {
      take(wheel(input.charCodeAt(i + 3) - 32));
      i += 6;
      continue;
    }
    pass += input[i];
    i += 1;
  }
  if (pass !== '') pieces.push({ pass });
  return pieces;
}

/** A mouse report's button code: the wheel (64 up, 65 down, plus modifier bits 4, 8, 16) or anything else. */
function wheel(button: number): ScrollPiece {
  if ((button & 64) === 0 || (button & 128) !== 0) return { mouse: 'other' };
  const direction = button & 3;
  if (direction === 0) return { scroll: 'lines', lines: -WHEEL_LINES };
  if (direction === 1) return { scroll: 'lines', lines: WHEEL_LINES };
  return { mouse: 'other' }; // wheel left and right
}
