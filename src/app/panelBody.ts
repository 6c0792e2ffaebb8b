// A panel's body as drawn (its lines wrapped to the box, the rows it may take, scrolled):
// apart from Panel.tsx, so the session scrolls a panel without loading Ink.
import { wrapToWidth } from './wrap.js';
import { paneHeightOf } from './paneSize.js';
import { moved, type MoveKey } from './picker/pickerKeys.js';
import type { OverlayView } from './view.js';

/** A panel's width and the rows its body may take, in a terminal of `columns` × `rows`. */
export function panelSize(columns: number, rows: number): { width: number; maxHeight: number } {
  return { width: Math.min(columns - 2, 100), maxHeight: paneHeightOf(rows) - 1 };
}

/** The panel's lines as drawn: each wrapped to the box's inner width (a line is never cut). */
export function wrappedLines(lines: readonly string[], width: number): string[] {
  const inner = Math.max(1, width - 2);
  return lines.flatMap((line) => wrapToWidth(line, Math.max(1, inner - 1)));
}

/** Rows for the body: the box's height less its two borders, the title and the footer. */
export function bodyRows(maxHeight: number): number {
  return Math.max(1, maxHeight - 4);
}

/** Lines of text shown in `rows` when `wrapped` do not all fit: one row is the scroll line, unless there is only one row. */
function textRows(rows: number): number {
  return Math.max(1, rows - 1);
}

/** The first line that can be shown on top, scrolled to the end (the last row says where one is). */
export function lastTop(wrapped: number, rows: number): number {
  return wrapped <= rows ? 0 : wrapped - textRows(rows);
}

/** `panel` scrolled by a line, a page or to an end, as it is drawn in a terminal of `columns` × `rows`. */
export function scrollPanel(panel: OverlayView, key: MoveKey, columns: number, rows: number): OverlayView {
  const { width, maxHeight } = panelSize(columns, rows);
  const page = bodyRows(maxHeight);
  const last = lastTop(wrappedLines(panel.lines, width).length, page);
  return { ...panel, top: moved({ type: key }, Math.min(panel.top ?? 0, last), last, textRows(page)) ?? 0 };
}

/**
 * The panel's body: `wrapped` from line `top`, at most `rows` of them; when they do not all
 * fit, the last row says which are shown and how to scroll to the others (with a single
 * row, that row is the line: the keys scroll it all the same).
 */
export function panelBody(wrapped: readonly string[], rows: number, top = 0): string[] {
  if (wrapped.length <= rows) return [...wrapped];
  const from = Math.max(0, Math.min(top, lastTop(wrapped.length, rows)));
  const shown = wrapped.slice(from, from + textRows(rows));
  if (rows <= 1) return shown;
  return [...shown, `… lines ${from + 1}-${from + shown.length} of ${wrapped.length}: ↑↓ PgUp PgDn scroll`];
}
