/** The pane takes every row but the last: the status line. */
export function paneHeightOf(rows: number): number {
  return Math.max(1, rows - 1);
}
