// Comparing a bare terminal with Rewind's pane, cell by cell: text, width, colours and
// attributes of every cell, and the cursor. Rewind's screen has one row more (its status row),
// left out of the comparison.
import type { Cell, TermCursor, TermSession } from '../helpers/term.js';

/** Attributes that show on a blank cell (the others change only how a glyph is drawn). */
const SHOWN_ON_BLANK = new Set(['inverse', 'underline', 'strikethrough', 'overline']);

/**
 * A cell as it looks: a cell never written (or erased) with the default background looks as
 * a space does, and a blank cell's bold, dim, italic, blink or invisible (and its
 * foreground) show nothing.
 */
function look(cell: Cell | undefined, colours = true, blanks = false): string {
  if (!cell) return 'none';
  // An erased cell of a background stays erased: drawn as a written space it would differ
  // (a selection copies it, a reflow keeps it). Unless the row is one the agent itself draws
  // either way from run to run (`blanks`, see RowMask).
  const chars = cell.chars === '' && cell.width === 1 && (blanks || cell.bg === 'default') ? ' ' : cell.chars;
  if (chars !== ' ') return JSON.stringify({ ...cell, chars, fg: colours ? cell.fg : '-' });
  // A blank's foreground shows only through the attributes below.
  const attrs = cell.attrs.split(',').filter((attr) => SHOWN_ON_BLANK.has(attr));
  return JSON.stringify({ chars, width: cell.width, fg: attrs.length > 0 ? cell.fg : '-', bg: cell.bg, attrs: attrs.join(',') });
}

/**
 * The agent's own randomness in a row, not Rewind's: `text` (Claude's "✻ Churned for 0s", a
 * random verb: the row is compared by its first cell only), `colours` (Codex colours the
 * thread's title at random: the row's text and attributes are compared, not its foreground)
 * or `blanks` (Codex's composer on a known background: its screen diffing leaves a blank of
 * the shade erased in one run and writes it as a space in another; the two count as one).
 */
export type RowMask = (text: string) => 'text' | 'colours' | 'blanks' | undefined;

/** Text that differs between the two runs only by their temp folders: [bare's, Rewind's], as wide as each other. */
export type Alias = readonly [bare: string, app: string];

/** `row` with each of Rewind's texts of `aliases` written as bare's (cell per character: ASCII paths). */
function unalias(row: readonly Cell[], aliases: readonly Alias[]): readonly Cell[] {
  if (aliases.length === 0) return row;
  const out = [...row];
  const text = row.map((cell) => (cell.chars.length === 1 ? cell.chars : '\0')).join('');
  for (const [bare, app] of aliases) {
    for (let at = text.indexOf(app); at >= 0; at = text.indexOf(app, at + app.length)) {
      for (let i = 0; i < app.length; i++) out[at + i] = { ...(out[at + i] as Cell), chars: bare[i] ?? ' ' };
    }
  }
  return out;
}

function rowText(cells: readonly Cell[]): string {
  return cells.map((cell) => cell.chars || (cell.width === 0 ? '' : ' ')).join('').trimEnd();
}

/** What a comparison leaves out, each for a reason outside Rewind (see each type). */
export interface CompareOptions {
  masked?: RowMask;
  aliases?: readonly Alias[];
  /**
   * For an inline agent after a resize: the first row of its live frame (what it redraws), from
   * the rows' text. Above it the terminal's reflow shows the agent's history, which holds
   * transient frames (a hook's "Executing Hook" line) that scrolled off at moments that differ
   * between two runs. The live frame must start on the same row on both screens.
   */
  liveFrame?: (rows: readonly string[]) => number;
}

/**
 * Where two screens differ, one line per differing row (at most `limit`), '' when they do
 * not. Rewind's texts of `aliases` count as bare's; a row `masked` names on both screens is
 * compared as it says.
 */
export function screenDiff(bare: { cells: Cell[][]; cursor: TermCursor }, app: { cells: Cell[][]; cursor: TermCursor }, options: CompareOptions = {}, limit = 20): string {
  const { masked = () => undefined, aliases = [] } = options;
  const out: string[] = [];
  const rows = bare.cells.length;
  let from = 0;
  if (options.liveFrame) {
    from = options.liveFrame(bare.cells.map(rowText));
    const appFrom = options.liveFrame(app.cells.map((row) => rowText(unalias(row, aliases))));
    if (from !== appFrom || from < 0) out.push(`the live frame starts on row ${from} bare, ${appFrom} in rewind`);
  }
  for (let y = Math.max(0, from); y < rows; y++) {
    const a = bare.cells[y] ?? [];
    const b = unalias(app.cells[y] ?? [], aliases);
    const mask = masked(rowText(a)) === masked(rowText(b)) ? masked(rowText(a)) : undefined;
    const width = mask === 'text' ? 1 : Math.max(a.length, b.length);
    const differing: number[] = [];
    for (let x = 0; x < width; x++) if (look(a[x], mask !== 'colours', mask === 'blanks') !== look(b[x], mask !== 'colours', mask === 'blanks')) differing.push(x);
    const first = differing[0];
    if (first !== undefined) out.push(`row ${y}, ${differing.length} cells from col ${first} to ${differing.at(-1)}: bare ${look(a[first])}, rewind ${look(b[first])}`);
  }
  if (JSON.stringify(bare.cursor) !== JSON.stringify(app.cursor)) out.push(`cursor: bare ${JSON.stringify(bare.cursor)}, rewind ${JSON.stringify(app.cursor)}`);
  return out.slice(0, limit).join('\n') + (out.length > limit ? `\n… ${out.length - limit} more rows` : '');
}

/** Rewind's screen without its status row (the last). */
function pane(app: TermSession): { cells: Cell[][]; cursor: TermCursor } {
  return { cells: app.cells().slice(0, -1), cursor: app.cursor() };
}

/**
 * Resolves once the bare terminal's screen and Rewind's pane are the same, cell by cell and
 * cursor; after `timeoutMs`, rejects with where they differ and both screens.
 */
export async function expectSameScreens(bare: TermSession, app: TermSession, what: string, options: CompareOptions = {}, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const diff = screenDiff({ cells: bare.cells(), cursor: bare.cursor() }, pane(app), options);
    if (diff === '') return;
    if (Date.now() > deadline) {
      throw new Error(`${what}: the pane differs from the bare terminal\n${diff}\n--- bare:\n${bare.text()}\n--- rewind:\n${app.text()}`);
    }
    // Either screen may still be drawing: check again on its next change (or in a moment).
    await Promise.race([
      bare.waitFor((screen) => screen !== bare.text(), 200).catch(() => undefined),
      app.waitFor((screen) => screen !== app.text(), 200).catch(() => undefined),
    ]);
  }
}
