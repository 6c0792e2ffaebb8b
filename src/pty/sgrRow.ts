import type { IBufferCell, IBufferLine } from '@xterm/headless';

const BOLD = 1;
const DIM = 2;
const ITALIC = 4;
const UNDERLINE = 8;
const INVERSE = 16;
const INVISIBLE = 32;
const STRIKETHROUGH = 64;
const BLINK = 128;
const OVERLINE = 256;

/** SGR "on" code per attribute flag (bold and dim share their "off" code, 22). */
const ON_CODES: ReadonlyArray<readonly [number, number]> = [
  [BOLD, 1],
  [DIM, 2],
  [ITALIC, 3],
  [UNDERLINE, 4],
  [INVERSE, 7],
  [INVISIBLE, 8],
  [STRIKETHROUGH, 9],
  [BLINK, 5],
  [OVERLINE, 53],
];
const OFF_CODES: ReadonlyArray<readonly [number, number]> = [
  [ITALIC, 23],
  [UNDERLINE, 24],
  [INVERSE, 27],
  [INVISIBLE, 28],
  [STRIKETHROUGH, 29],
  [BLINK, 25],
  [OVERLINE, 55],
];

/** How a cell's colour is given: terminal default, palette index (0-255), or 0xRRGGBB. */
type ColorMode = 0 | 1 | 2;
const DEFAULT_COLOR: ColorMode = 0;
const PALETTE: ColorMode = 1;
const RGB: ColorMode = 2;

/** The look of one cell, reduced to what we draw. */
interface Style {
  flags: number;
  fgMode: ColorMode;
  fg: number;
  bgMode: ColorMode;
  bg: number;
}

const DEFAULT_STYLE: Style = { flags: 0, fgMode: DEFAULT_COLOR, fg: 0, bgMode: DEFAULT_COLOR, bg: 0 };

/** The underline flag in xterm's packed foreground word: what SGR 4 set (internal to xterm, version pinned). */
const FG_UNDERLINE = 0x10000000;

/**
 * Whether the cell is underlined by the child. xterm reports every cell of a hyperlink as
 * underlined (how its renderer shows links); for a `linked` cell only the SGR underline counts:
 * the link itself is passed on, and the outer terminal shows it its own way.
 */
function isUnderlined(cell: IBufferCell, linked: boolean): boolean {
  if (!linked) return cell.isUnderline() !== 0;
  const fg = (cell as unknown as { fg?: unknown }).fg;
  return typeof fg === 'number' ? (fg & FG_UNDERLINE) !== 0 : cell.isUnderline() !== 0;
}

function styleOf(cell: IBufferCell, linked = false): Style {
  let flags = 0;
  // The is*() getters return numbers (bit masks), not booleans.
  if (cell.isBold()) flags |= BOLD;
  if (cell.isDim()) flags |= DIM;
  if (cell.isItalic()) flags |= ITALIC;
  if (isUnderlined(cell, linked)) flags |= UNDERLINE;
  if (cell.isInverse()) flags |= INVERSE;
  if (cell.isInvisible()) flags |= INVISIBLE;
  if (cell.isStrikethrough()) flags |= STRIKETHROUGH;
  if (cell.isBlink()) flags |= BLINK;
  if (cell.isOverline()) flags |= OVERLINE;
  const fgMode = cell.isFgRGB() ? RGB : cell.isFgPalette() ? PALETTE : DEFAULT_COLOR;
  const bgMode = cell.isBgRGB() ? RGB : cell.isBgPalette() ? PALETTE : DEFAULT_COLOR;
  // A default colour's number is not reliably 0: only compare numbers of set colours.
  const fg = fgMode === DEFAULT_COLOR ? 0 : cell.getFgColor();
  const bg = bgMode === DEFAULT_COLOR ? 0 : cell.getBgColor();
  return { flags, fgMode, fg, bgMode, bg };
}

function sameStyle(a: Style, b: Style): boolean {
  return a.flags === b.flags && a.fgMode === b.fgMode && a.fg === b.fg && a.bgMode === b.bgMode && a.bg === b.bg;
}

function isDefaultStyle(style: Style): boolean {
  return sameStyle(style, DEFAULT_STYLE);
}

function colorParams(mode: ColorMode, color: number, background: boolean): string {
  const base = background ? 40 : 30;
  if (mode === DEFAULT_COLOR) return String(base + 9);
  if (mode === RGB) return `${base + 8};2;${(color >> 16) & 0xff};${(color >> 8) & 0xff};${color & 0xff}`;
  if (color < 8) return String(base + color);
  if (color < 16) return String(base + 60 + color - 8);
  return `${base + 8};5;${color}`;
}

/** The shortest SGR sequence we know that turns `from` into `to` ('' if they are equal). */
function transition(from: Style, to: Style): string {
  if (sameStyle(from, to)) return '';
  if (isDefaultStyle(to)) return '\x1b[0m';
  const params: string[] = [];
  const off = from.flags & ~to.flags;
  let reapply = 0;
  if (off & (BOLD | DIM)) {
    params.push('22');
    reapply = to.flags & (BOLD | DIM);
  }
  for (const [flag, code] of OFF_CODES) if (off & flag) params.push(String(code));
  const on = (to.flags & ~from.flags) | reapply;
  for (const [flag, code] of ON_CODES) if (on & flag) params.push(String(code));
  if (from.fgMode !== to.fgMode || from.fg !== to.fg) params.push(colorParams(to.fgMode, to.fg, false));
  if (from.bgMode !== to.bgMode || from.bg !== to.bg) params.push(colorParams(to.bgMode, to.bg, true));
  return `\x1b[${params.join(';')}m`;
}

/** Whether a cell shows anything: a glyph, or a background, inverse, underline, strike or overline. */
function isVisible(cell: IBufferCell): boolean {
  const chars = cell.getChars();
  if (chars !== '' && chars !== ' ') return true;
  return !cell.isBgDefault() || cell.isInverse() !== 0 || cell.isUnderline() !== 0 || cell.isStrikethrough() !== 0 || cell.isOverline() !== 0;
}

/** A cell erased with a background (BCE): nothing written, the background only, as `ESC[K` leaves it. */
function isErasedWithBackground(cell: IBufferCell): boolean {
  return cell.getChars() === '' && cell.getWidth() === 1 && !cell.isBgDefault();
}

/** The style an erase with background `of`'s leaves on a cell: that background, nothing else. */
function eraseStyle(of: Style): Style {
  return { ...DEFAULT_STYLE, bgMode: of.bgMode, bg: of.bg };
}

/** OSC 8 opening the link `link` (`params;uri`), or closing the one open (undefined). */
function hyperlink(link: string | undefined): string {
  return `\x1b]8;${link ?? ';'}\x1b\\`;
}

/** Erase to the end of the line (EL 0): the cells from the cursor on take the current background. */
export const ERASE_TO_END = '\x1b[K';

/**
 * One screen row as text with SGR escapes: it starts from the default style, emits a
 * sequence only where the style changes, ends with a reset if it left a style on, and drops
 * trailing blank cells (fewer bytes to compare and to write). A tail of cells erased with a
 * background (an agent's `ESC[48;5;238m ESC[K`, Codex's shaded rows) is drawn the same way,
 * that background then `ESC[K` (ERASE_TO_END): the outer terminal holds erased cells as a bare
 * one does, not written spaces (a copied selection, a reflow see the same). The cell after a
 * wide character (width 0) is skipped; `getChars()` gives whole graphemes, combining marks
 * included.
 *
 * A run of cells the child made a hyperlink (OSC 8) is drawn inside the same OSC 8, given
 * `linkOf`, which tells a cell's link (the sequence's parameters and URI) if it has one.
 *
 * @param line the buffer line, or undefined for a row past the end of the buffer.
 * @param cell a scratch cell (`buffer.getNullCell()`), reused across calls for speed.
 */
export function sgrRow(line: IBufferLine | undefined, cols: number, cell: IBufferCell, linkOf?: (cell: IBufferCell) => string | undefined): string {
  if (line === undefined) return '';
  const width = Math.min(cols, line.length);
  let end = width;
  while (end > 0 && (line.getCell(end - 1, cell) === undefined || !isVisible(cell))) end -= 1;
  // The erased tail: it must reach the last column (an erase to the end of the line does).
  let tailStyle: Style | undefined;
  let tail = end;
  if (end === cols && line.getCell(end - 1, cell) !== undefined && isErasedWithBackground(cell)) {
    const erased = eraseStyle(styleOf(cell));
    if (sameStyle(styleOf(cell), erased)) {
      tailStyle = erased;
      while (tail > 0 && line.getCell(tail - 1, cell) !== undefined && isErasedWithBackground(cell) && sameStyle(styleOf(cell), erased)) tail -= 1;
    }
  }
  let out = '';
  let style = DEFAULT_STYLE;
  let link: string | undefined;
  for (let x = 0; x < tail; x += 1) {
    if (line.getCell(x, cell) === undefined) break;
    if (cell.getWidth() === 0) continue;
    if (isErasedWithBackground(cell) && link === undefined) {
      // Erased cells inside the row (Codex's shaded composer): erased the same way (ECH, then
      // the cursor past them), not written as spaces.
      const erased = eraseStyle(styleOf(cell));
      let run = 1;
      while (x + run < tail && line.getCell(x + run, cell) !== undefined && isErasedWithBackground(cell) && sameStyle(eraseStyle(styleOf(cell)), erased) && sameStyle(styleOf(cell), erased)) run += 1;
      line.getCell(x, cell);
      if (sameStyle(styleOf(cell), erased)) {
        out += transition(style, erased) + `\x1b[${run}X\x1b[${run}C`;
        style = erased;
        x += run - 1;
        continue;
      }
    }
    const nextLink = linkOf?.(cell);
    const next = styleOf(cell, nextLink !== undefined);
    out += transition(style, next);
    style = next;
    if (nextLink !== link) out += hyperlink(nextLink);
    link = nextLink;
    const chars = cell.getChars();
    out += chars === '' ? ' ' : chars;
  }
  if (link !== undefined) out += hyperlink(undefined);
  if (tailStyle) {
    out += transition(style, tailStyle) + ERASE_TO_END;
    style = tailStyle;
  }
  if (!isDefaultStyle(style)) out += '\x1b[0m';
  return out;
}
