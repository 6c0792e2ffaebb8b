import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
import { sgrRow } from './sgrRow.js';

/** Whether a cell shows anything (sgrRow's rule: it trims the cells that do not). */
function shows(cell: IBufferCell): boolean {
  const chars = cell.getChars();
  if (chars !== '' && chars !== ' ') return true;
  return !cell.isBgDefault() || cell.isInverse() !== 0 || cell.isUnderline() !== 0 || cell.isStrikethrough() !== 0;
}

/** How many columns `sgrRow` draws of `line`: up to its last cell that shows, a wide one's second half included. */
function drawnWidth(line: IBufferLine, cols: number, cell: IBufferCell): number {
  let end = Math.min(cols, line.length);
  while (end > 0 && (line.getCell(end - 1, cell) === undefined || !shows(cell))) end -= 1;
  if (end === 0) return 0;
  line.getCell(end - 1, cell);
  return Math.min(cols, end - 1 + Math.max(1, cell.getWidth()));
}

/**
 * What a terminal of `cols` columns shows of the normal buffer `buffer` from line `from` on,
 * as bytes that draw it again at the cursor of another terminal of the same width: each row
 * with its colours and attributes, rows that wrap written to the edge so that they wrap there
 * too (and reflow as one line), then the cursor put where the buffer has it. '' when there is
 * nothing from `from` on and the cursor is at its start.
 *
 * For the agent's last words at exit: what it printed after leaving its alternate screen
 * (`codex resume …`), and what an inline agent or a shell left, scrollback included.
 *
 * @param cell a scratch cell (`buffer.getNullCell()`).
 */
export function normalScreenText(buffer: IBuffer, cols: number, from: number, cell: IBufferCell): string {
  const cursorRow = buffer.baseY + buffer.cursorY;
  const start = Math.max(0, Math.min(from, cursorRow));
  let last = cursorRow;
  for (let y = buffer.length - 1; y > last; y -= 1) {
    const line = buffer.getLine(y);
    if (line && drawnWidth(line, cols, cell) > 0) {
      last = y;
      break;
    }
  }
  const cursorX = Math.min(buffer.cursorX, cols - 1);
  let out = '';
  for (let y = start; y <= last; y += 1) {
    const line = buffer.getLine(y);
    out += sgrRow(line, cols, cell);
    if (y === last) break;
    const wraps = buffer.getLine(y + 1)?.isWrapped === true;
    // A row the next one continues fills the width: the other terminal wraps it the same way.
    if (wraps && line) out += ' '.repeat(cols - drawnWidth(line, cols, cell));
    else out += '\r\n';
  }
  if (start === last && out === '' && cursorX === 0) return '';
  if (last > cursorRow) out += `\x1b[${last - cursorRow}A`;
  return `${out}\r${cursorX > 0 ? `\x1b[${cursorX}C` : ''}`;
}
