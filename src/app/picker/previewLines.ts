import { oneLine } from '../../shared/format.js';
import { formatBytes } from '../../shared/format.js';
import type { PickerPreview } from './types.js';
import { NOTHING_TO_CHANGE } from './modeOptions.js';

export interface PreviewLine {
  text: string;
  tone?: 'warning' | 'error' | 'dim';
}

export const UNSAVED_NOTE = '! edited after the newest checkpoint — kept in the redo point';

/** `lines`, or as many as fit in `room` with the last saying how many more there are. */
function fit(lines: PreviewLine[], room: number, what: string): PreviewLine[] {
  if (lines.length <= room) return lines;
  if (room <= 0) return [];
  const shown = lines.slice(0, room - 1);
  return [...shown, { text: `… ${lines.length - shown.length} more ${what}`, tone: 'dim' }];
}

/**
 * What the preview's header says a restore changes, in the rows' terms (a row is a step,
 * and shows no id): more than the row's count (that one step) unless the row is the
 * newest, since a restore also undoes every step after it.
 */
function changesHeader(files: number, newest: boolean): string {
  return `undoing ${newest ? 'this step' : 'this and every later step'} now changes ${files} file(s)`;
}

/**
 * The preview of restoring a row's checkpoint (`newest`: the newest checkpoint's), in at most
 * `maxLines` lines (uncut): a header saying how many files a restore changes now, the files
 * it would change (`M src/db.ts  +12 -3`, `!` before the ones edited after the
 * newest checkpoint), the note on those, and the skipped files it leaves alone. When it does
 * not all fit, the lists end in `… N more`; the note is always kept.
 */
export function previewLines(preview: PickerPreview, maxLines: number, newest = false): PreviewLine[] {
  if (maxLines <= 0) return [];
  if (preview.error !== undefined) return [{ text: `this step cannot be previewed: ${oneLine(preview.error)}`, tone: 'error' }];
  const unsaved = new Set(preview.unsaved);
  const fileLines: PreviewLine[] = preview.files.map((file) => {
    const counts = file.added === null || file.removed === null ? 'binary' : `+${file.added} -${file.removed}`;
    return { text: `${unsaved.has(file.path) ? '!' : ' '} ${file.status} ${oneLine(file.path)}  ${counts}`, ...(unsaved.has(file.path) ? { tone: 'warning' as const } : {}) };
  });
  const listed = new Set(preview.files.map((file) => file.path));
  for (const path of preview.unsaved) if (!listed.has(path)) fileLines.push({ text: `!   ${oneLine(path)}`, tone: 'warning' });
  const header: PreviewLine =
    fileLines.length === 0
      ? { text: NOTHING_TO_CHANGE, tone: 'dim' }
      : { text: changesHeader(preview.files.length, newest) };
  const note: PreviewLine[] = unsaved.size > 0 ? [{ text: UNSAVED_NOTE, tone: 'warning' }] : [];
  const skippedLines: PreviewLine[] = preview.skipped.map((file) => ({
    text: `left alone (skipped): ${oneLine(file.path)}  ${formatBytes(file.bytes)}, ${oneLine(file.reason)}`,
    tone: 'dim',
  }));
  const room = maxLines - 1 - note.length;
  if (room <= 0) return [header, ...note].slice(0, maxLines);
  const skippedRoom = Math.min(skippedLines.length, Math.max(skippedLines.length > 0 ? 1 : 0, Math.floor(room / 3), room - fileLines.length));
  const fileRoom = room - skippedRoom;
  return [header, ...fit(fileLines, fileRoom, 'file(s)'), ...note, ...fit(skippedLines, skippedRoom, 'skipped file(s)')];
}
