/** Where the picker's parts go in a `width` x `height` box (border and padding included). */
export interface PickerLayout {
  /** Columns inside the border and padding: every line is cut to this. */
  innerWidth: number;
  /** Rows of the list (the page size). */
  listHeight: number;
  /** Rows of the preview under the list (0 when there is no room for one). */
  previewHeight: number;
}

/** What shares the box besides the list and the preview. */
export interface PickerLayoutParts {
  banner: boolean;
  busy: boolean;
  /** Rows the list would fill: the visible rows (or what the mode menu needs in its place). */
  listRows: number;
}

/**
 * Splits the box: title, optional banner and busy lines, the list, a rule and the preview
 * under it, the filter line and the key hints. The list takes only the rows it has (a
 * short list leaves no empty rows above the preview), keeping at least a third of the room
 * (2-10 lines) for the preview; the preview takes all the rest. The preview goes under the
 * list rather than beside it, so rows get the full width at 40 columns too.
 */
export function pickerLayout(width: number, height: number, parts: PickerLayoutParts): PickerLayout {
  const innerWidth = Math.max(1, width - 4);
  const fixed = 2 + 1 + (parts.banner ? 1 : 0) + (parts.busy ? 1 : 0) + 1 + 1;
  const room = Math.max(1, height - fixed);
  if (room < 8) return { innerWidth, listHeight: room, previewHeight: 0 };
  const previewAtLeast = Math.max(2, Math.min(10, Math.floor(room / 3)));
  const listHeight = Math.max(1, Math.min(parts.listRows, room - previewAtLeast - 1));
  return { innerWidth, listHeight, previewHeight: room - listHeight - 1 };
}
