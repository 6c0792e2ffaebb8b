// A tmux pane's capture (`capture-pane -e -N`) read back into cells as they look: the
// character and, of its attributes, those that show. tmux keeps a DEC graphics cell as its
// ASCII letter marked as such (SO … SI in the capture) and draws it on a UTF-8 terminal through
// its own table; a program drawing through Rewind hands tmux the Unicode character itself.
// Both are compared as what tmux draws.
import stringWidth from 'string-width';

/** One cell: what it shows (`' '` for a blank) and a canonical account of the attributes that show. */
export interface ScreenCell {
  chars: string;
  look: string;
}

/** tmux's table (tty-acs.c) from DEC graphics letters to what it draws on a UTF-8 terminal. */
const TMUX_ACS: Readonly<Record<string, string>> = {
  '+': '→', ',': '←', '-': '↑', '.': '↓', '0': '▮', '`': '◆', a: '▒', b: '␉', c: '␌', d: '␍', e: '␊', f: '°', g: '±', h: '␤', i: '␋',
  j: '┘', k: '┐', l: '┌', m: '└', n: '┼', o: '⎺', p: '⎻', q: '─', r: '⎼', s: '⎽', t: '├', u: '┤', v: '┴', w: '┬', x: '│', y: '≤', z: '≥',
  '{': 'π', '|': '≠', '}': '£', '~': '·',
};

interface Style {
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: string;
  blink: boolean;
  inverse: boolean;
  hidden: boolean;
  strike: boolean;
  overline: boolean;
  fg: string;
  bg: string;
}

const plain = (): Style => ({ bold: false, dim: false, italic: false, underline: '', blink: false, inverse: false, hidden: false, strike: false, overline: false, fg: '', bg: '' });

/** A colour from SGR 38/48 and what follows, as text; `params` is consumed. */
function extendedColour(first: string, params: string[]): string {
  // Colon form (38:5:n, 38:2::r:g:b) arrives as one parameter.
  if (first.includes(':')) return first.split(':').slice(1).filter((part) => part !== '').join(':');
  const kind = params.shift();
  if (kind === '5') return `5:${params.shift() ?? ''}`;
  if (kind === '2') return `2:${params.splice(0, 3).join(':')}`;
  return '';
}

/** `style` after the SGR parameters `text` (`1;4`, `0`, `38;5;9`…). */
function applySgr(style: Style, text: string): Style {
  const params = text === '' ? ['0'] : text.split(';');
  let next = { ...style };
  while (params.length > 0) {
    const param = params.shift() ?? '0';
    const code = Number(param.split(':')[0]);
    if (code === 0) next = plain();
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = param.includes(':') ? param.split(':')[1] ?? '1' : '1';
    else if (code === 5 || code === 6) next.blink = true;
    else if (code === 7) next.inverse = true;
    else if (code === 8) next.hidden = true;
    else if (code === 9) next.strike = true;
    else if (code === 21) next.underline = '2';
    else if (code === 22) next = { ...next, bold: false, dim: false };
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = '';
    else if (code === 25) next.blink = false;
    else if (code === 27) next.inverse = false;
    else if (code === 28) next.hidden = false;
    else if (code === 29) next.strike = false;
    else if (code === 53) next.overline = true;
    else if (code === 55) next.overline = false;
    else if (code >= 30 && code <= 37) next.fg = String(code - 30);
    else if (code >= 90 && code <= 97) next.fg = String(code - 90 + 8);
    else if (code >= 40 && code <= 47) next.bg = String(code - 40);
    else if (code >= 100 && code <= 107) next.bg = String(code - 100 + 8);
    else if (code === 38) next.fg = extendedColour(param, params);
    else if (code === 48) next.bg = extendedColour(param, params);
    else if (code === 39) next.fg = '';
    else if (code === 49) next.bg = '';
  }
  return next;
}

/** The attributes of a cell that show: on a blank only its background, inverse, underline, strike and overline. */
function lookOf(style: Style, blank: boolean): string {
  const shown: string[] = [];
  if (!blank) {
    if (style.bold) shown.push('bold');
    if (style.dim) shown.push('dim');
    if (style.italic) shown.push('italic');
    if (style.blink) shown.push('blink');
    if (style.hidden) shown.push('hidden');
    if (style.fg !== '') shown.push(`fg ${style.fg}`);
  }
  if (style.underline !== '') shown.push(`underline ${style.underline}`);
  if (style.inverse) shown.push('inverse');
  if (style.strike) shown.push('strike');
  if (style.overline) shown.push('overline');
  if (style.bg !== '') shown.push(`bg ${style.bg}`);
  return shown.join(',');
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The captured rows as `cols` cells each (a wide character's second cell is `''`), a row
 * shorter than the screen padded with blanks. The style a row ends in carries on into the
 * next, as tmux writes it.
 */
export function screenCells(rows: readonly string[], cols: number): ScreenCell[][] {
  let style = plain();
  let graphics = false;
  return rows.map((row) => {
    const cells: ScreenCell[] = [];
    // eslint-disable-next-line no-control-regex -- SGR, SO, SI and the text between them
    for (const [, sgr, shift, text] of row.matchAll(/\x1b\[([\d;:]*)m|([\x0e\x0f])|\x1b[^\x1b]*?[@-~]|([^\x1b\x0e\x0f]+)/g)) {
      if (sgr !== undefined) style = applySgr(style, sgr);
      else if (shift !== undefined) graphics = shift === '\x0e';
      else if (text !== undefined) {
        for (const { segment } of segmenter.segment(text)) {
          const chars = graphics ? (TMUX_ACS[segment] ?? segment) : segment;
          cells.push({ chars, look: lookOf(style, chars === ' ') });
          if (stringWidth(chars) === 2) cells.push({ chars: '', look: '' });
        }
      }
    }
    while (cells.length < cols) cells.push({ chars: ' ', look: '' });
    return cells.slice(0, cols);
  });
}

/** A row's text, for messages. */
export function rowText(row: readonly ScreenCell[]): string {
  return row.map((cell) => cell.chars).join('').trimEnd();
}
