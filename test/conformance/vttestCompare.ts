// Where two screens differ, row by row: the cells that differ and what each side shows there.
import { rowText, type ScreenCell } from './tmuxScreen.js';
import type { Screens } from './vttestRun.js';

/** One row that differs: its number, the columns that differ, each side's text and the first differing cell on each. */
export interface RowDifference {
  row: number;
  columns: number[];
  bare: string;
  rewind: string;
  first: { bare: ScreenCell | undefined; rewind: ScreenCell | undefined };
  /** Every cell that differs is a blank on both sides (only a background, inverse or underline of a blank differs). */
  blanksOnly: boolean;
}

const same = (a: ScreenCell | undefined, b: ScreenCell | undefined) => a?.chars === b?.chars && a?.look === b?.look;

/** The rows where the two screens differ (text or look of any cell). */
export function rowDifferences(screens: Screens): RowDifference[] {
  const out: RowDifference[] = [];
  screens.bare.forEach((bare, row) => {
    const rewind = screens.rewind[row] ?? [];
    const columns = bare.map((cell, x) => (same(cell, rewind[x]) ? -1 : x)).filter((x) => x >= 0);
    const at = columns[0];
    const blanksOnly = columns.every((x) => bare[x]?.chars === ' ' && rewind[x]?.chars === ' ');
    if (at !== undefined) out.push({ row, columns, bare: rowText(bare), rewind: rowText(rewind), first: { bare: bare[at], rewind: rewind[at] }, blanksOnly });
  });
  return out;
}

/** A difference as one line for a message. */
export function describeDifference(difference: RowDifference): string {
  const { row, columns, first } = difference;
  const cell = (c: ScreenCell | undefined) => JSON.stringify(c ?? null);
  return `row ${row}, ${columns.length} cells from col ${columns[0]} to ${columns.at(-1)}: bare ${cell(first.bare)}, rewind ${cell(first.rewind)}\n  bare:   ${difference.bare}\n  rewind: ${difference.rewind}`;
}
