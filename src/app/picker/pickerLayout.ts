/** Where the picker's parts go in a `width` x `height` box (border and padding included). */
export interface PickerLayout {
  /** Columns inside the border and padding: every line is cut to this. */
  innerWidth: number;
  /** Rows of the list (the page size). */
  listHeight: number;
  /** Rows of the preview under the list (0 when there is no room for one). */
  previewHeight: number;
}

/**
 * Splits the box: title, optional banner and busy lines, the list, a rule and the preview
 * under it (a third of the room, 2-10 lines), the filter line and the key hints. The preview
 * goes under the list rather than beside it, so rows get the full width at 40 columns too.
 */
export function pickerLayout(width: number, height: number, extra: { banner: boolean; busy: boolean }): PickerLayout {
  const innerWidth = Math.max(1, width - 4);
  const fixed = 2 + 1 + (extra.banner ? 1 : 0) + (extra.busy ? 1 : 0) + 1 + 1;
  const room = Math.max(1, height - fixed);
  const previewHeight = room >= 8 ? Math.max(2, Math.min(10, Math.floor(room / 3))) : 0;
  const listHeight = Math.max(1, room - previewHeight - (previewHeight > 0 ? 1 : 0));
  return { innerWidth, listHeight, previewHeight };
}
