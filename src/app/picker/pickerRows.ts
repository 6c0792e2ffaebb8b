import { oneLine } from '../../shared/format.js';
import { localTime } from '../../shared/time.js';
import { cutToWidth, textWidth } from './cut.js';
import type { PickerCheckpoint } from './types.js';

/**
 * One line of the picker's list. Only `undo` and `checkpoint` rows can be selected. A
 * checkpoint row is a step; `open` is set on a turn's row: whether its steps are shown.
 */
export type PickerRow =
  | { kind: 'undo' }
  | { kind: 'separator'; session: string | null; first: PickerCheckpoint }
  | { kind: 'checkpoint'; checkpoint: PickerCheckpoint; open?: boolean };

export const UNDO_TEXT = '↶ undo last rewind';

const UNDO_ROW: PickerRow = { kind: 'undo' };

/** Whether the undo row stays in view whatever is scrolled: it heads the rows, and there is room for another. */
export function stickyUndo(rows: readonly PickerRow[], height: number): boolean {
  return rows[0]?.kind === 'undo' && height > 1;
}

/**
 * The indices of the rows in view from `top` in `height` rows: `top` on, except that the undo
 * row, when it heads them, stays on the first line (scrolled down, it takes `top`'s place).
 */
export function rowsInView(rows: readonly PickerRow[], top: number, height: number): number[] {
  const h = Math.max(1, height);
  const end = Math.min(rows.length, top + h);
  const from = stickyUndo(rows, h) && top > 0 ? top + 1 : top;
  const indices = from > top ? [0] : [];
  for (let index = from; index < end; index += 1) indices.push(index);
  return indices;
}

/** Whether the row can carry the selection (separators cannot). */
export function isSelectable(row: PickerRow | undefined): boolean {
  return row !== undefined && row.kind !== 'separator';
}

/** Whether the step is a turn with steps that can be folded under it. */
export function hasSteps(checkpoint: PickerCheckpoint): boolean {
  return checkpoint.kind === 'turn' && (checkpoint.steps ?? 0) > 0;
}

const haystacks = new WeakMap<PickerCheckpoint, string>();

/** The lower-cased text a filter is matched against: label, trigger and edited paths. */
function haystack(checkpoint: PickerCheckpoint): string {
  let text = haystacks.get(checkpoint);
  if (text === undefined) {
    // What the row reads too (`prompt: fix the bug`): a filter typed from it finds it.
    text = [rowName(checkpoint), checkpoint.label, checkpoint.trigger, ...(checkpoint.paths ?? [])].join('\n').toLowerCase();
    haystacks.set(checkpoint, text);
  }
  return text;
}

/** No turn open. */
export const NO_TURNS: ReadonlySet<number> = new Set();

/**
 * The picker's rows for `checkpoints` (the session's steps, oldest first) in the same order:
 * an "undo last rewind" row at the top when `canUndo`, and a separator before each row
 * whose session differs from the row above it (sessions recorded as null form one group).
 * A turn's steps are shown under it only when the turn is in `open`.
 *
 * `filter` (case-insensitive substring) keeps only the steps whose label, trigger or
 * edited paths contain it, folded or not, the undo row only if "undo last rewind" does;
 * separators are placed between the rows that remain. O(n) and no formatting: rows are
 * formatted (and cut) only when drawn, see `rowText`.
 */
export function buildRows(checkpoints: readonly PickerCheckpoint[], canUndo: boolean, filter = '', open: ReadonlySet<number> = NO_TURNS): PickerRow[] {
  const needle = filter.toLowerCase();
  const rows: PickerRow[] = [];
  if (canUndo && (needle === '' || UNDO_TEXT.toLowerCase().includes(needle))) rows.push(UNDO_ROW);
  let previous: PickerCheckpoint | undefined;
  for (const checkpoint of checkpoints) {
    if (needle !== '' ? !haystack(checkpoint).includes(needle) : checkpoint.turn !== undefined && !open.has(checkpoint.turn)) continue;
    // An imported session is named even when it comes first (a project whose only steps are imported).
    if (previous !== undefined ? previous.session !== checkpoint.session || previous.importedFrom !== checkpoint.importedFrom : checkpoint.importedFrom !== undefined) {
      rows.push({ kind: 'separator', session: checkpoint.session, first: checkpoint });
    }
    rows.push(hasSteps(checkpoint) ? { kind: 'checkpoint', checkpoint, open: needle !== '' || open.has(checkpoint.id) } : { kind: 'checkpoint', checkpoint });
    previous = checkpoint;
  }
  return rows;
}

const memo = new WeakMap<readonly PickerCheckpoint[], { canUndo: boolean; filter: string; open: ReadonlySet<number>; rows: PickerRow[] }>();

/** `buildRows`, remembered for the last (canUndo, filter, open) asked of each checkpoint array. */
export function rowsFor(checkpoints: readonly PickerCheckpoint[], canUndo: boolean, filter: string, open: ReadonlySet<number> = NO_TURNS): PickerRow[] {
  const hit = memo.get(checkpoints);
  if (hit !== undefined && hit.canUndo === canUndo && hit.filter === filter && hit.open === open) return hit.rows;
  const rows = buildRows(checkpoints, canUndo, filter, open);
  memo.set(checkpoints, { canUndo, filter, open, rows });
  return rows;
}

/** `YYYY-MM-DD HH:MM:SS` in local time, as `rewind list` shows it; the input itself when it is not a date. */
export function formatTime(iso: string): string {
  return Number.isNaN(new Date(iso).getTime()) ? oneLine(iso) : localTime(iso);
}

/** What a checkpoint row calls its step: the label, else the trigger, else its id. */
export function checkpointTitle(checkpoint: PickerCheckpoint): string {
  const text = oneLine(checkpoint.label).trim() || oneLine(checkpoint.trigger).trim();
  return text || `checkpoint #${checkpoint.id}`;
}

/** A step as its row names it, without the row's marks: `prompt: fix the bug` for a turn, else its title. */
export function rowName(checkpoint: PickerCheckpoint): string {
  return checkpoint.kind === 'turn' ? `prompt: ${checkpointTitle(checkpoint)}` : checkpointTitle(checkpoint);
}

/** Session ids up to this many columns are shown whole (the app's own, `2026-12-01-a1b2c3`, are 17). */
export const SESSION_ID_ROOM = 24;

/**
 * `session 2026-12-01-a1b2c3`, or a name for the checkpoints that have no session recorded.
 * A longer id (an agent's UUID) keeps its start and its end, where ids that share a prefix
 * differ: `session 123e4567-e89b…426614174000`.
 */
export function sessionName(session: string | null): string {
  if (session === null) return 'no session recorded';
  const id = oneLine(session).trim();
  if (textWidth(id) <= SESSION_ID_ROOM) return `session ${id}`;
  const characters = Array.from(id);
  const head = Math.ceil((SESSION_ID_ROOM - 1) / 2);
  const tail = SESSION_ID_ROOM - 1 - head;
  return `session ${cutToWidth(id, head + 1).slice(0, -1)}…${characters.slice(-tail).join('')}`;
}

/** Below this many columns rows use the compact form, so a label still shows at 40 columns. */
export const COMPACT_BELOW = 64;

/** `3 files`, `1 file`, `120+ files`, `…` while unknown. */
export function fileCount(checkpoint: PickerCheckpoint, compact = false): string {
  if (checkpoint.files === null) return '…';
  const n = `${checkpoint.files}${checkpoint.more === true ? '+' : ''}`;
  if (compact) return n;
  return `${n} ${checkpoint.files === 1 && checkpoint.more !== true ? 'file' : 'files'}`;
}

/** What a step row says of its step: a turn its prompt and its steps, a step of a turn indented under it. */
function stepTitle(checkpoint: PickerCheckpoint, open: boolean | undefined, short = false): string {
  // A rewind's row only (a restore's or an undo's redo point): a label of your own is yours.
  const rewind = checkpoint.trigger === 'restore' || checkpoint.trigger === 'redo';
  const title = short && rewind ? shortRewindTitle(checkpointTitle(checkpoint)) : checkpointTitle(checkpoint);
  if (checkpoint.kind === 'turn') {
    const steps = checkpoint.steps ?? 0;
    const mark = steps === 0 ? '•' : open === true ? '▾' : '▸';
    return `${mark} prompt: ${title}${steps > 0 ? `  (${steps} step${steps === 1 ? '' : 's'})` : ''}`;
  }
  return checkpoint.turn !== undefined ? `    ${title}` : title;
}

/** How a rewind's row begins (runtime's step names), and the fewer words it says it in when the row is too narrow. */
const REWIND_WORDS: readonly (readonly [string, string])[] = [
  ['undo of the ', 'undo of '],
  ['finishing the ', 'finishing '],
  ['written during the ', 'written during '],
  ['rewind to just before ', 'rewind to before '],
  ['rewind of chosen files to just before ', 'rewind of chosen files to before '],
];

/**
 * A rewind's title in fewer words (`undo of the rewind to just before Edit a.txt` → `↶ rewind
 * to before Edit a.txt`: ↶ is undo, as on the undo row), so that a narrow row keeps the
 * step's name that tells it from the others. Only the words before that name change: the
 * name is the step's own.
 */
export function shortRewindTitle(title: string): string {
  let shortened = '';
  let rest = title;
  for (;;) {
    const words = REWIND_WORDS.find(([long]) => rest.startsWith(long));
    if (!words) return shortened + rest;
    // Undos of undos are ↶ each; an undo inside other words (`written during the undo of …`) is said.
    shortened += words[0] === 'undo of the ' && /^(↶ )*$/.test(shortened) ? '↶ ' : words[1];
    rest = rest.slice(words[0].length);
    if (words[1].endsWith('to before ')) return shortened + rest;
  }
}

/** The mode screen's title: what the restore goes back to, and what that step changed. */
export function menuTitle(checkpoint: PickerCheckpoint): string {
  const what = checkpoint.kind === 'turn' ? `prompt "${checkpointTitle(checkpoint)}"` : checkpointTitle(checkpoint);
  const changed = checkpoint.files === null ? '' : ` (${checkpoint.kind === 'turn' ? 'its turn' : 'it'} changed ${fileCount(checkpoint)})`;
  return `just before ${what}${changed}, ${formatTime(checkpoint.time)}`;
}

/**
 * A row's text, uncut:
 * `2026-01-15 14:30:23  3 files     ▾ prompt: implement the auth middleware  (2 steps)`, then
 * its steps indented under it (`1 file      Edit src/auth.ts`). The count is what that one
 * step changed, a turn's what its whole turn changed: from its checkpoint to the next
 * step's (to the files as they are now for the newest; `…` while not known). Choosing the
 * row undoes exactly that, and every step after it, which the preview names. `no longer
 * restorable` comes before the title when its files are gone. A separator names the
 * session and when its first row was taken: `── session 2026-01-15-a1b2c3 · 2026-01-15
 * 14:30:23 ──`; then `↶ undo last rewind`. `compact` (for narrow boxes) shortens the start of
 * a step row to `01-15 14:30  3  `; `short` (a row too narrow for it), a rewind's title
 * (shortRewindTitle).
 */
export function rowText(row: PickerRow, compact = false, short = false): string {
  switch (row.kind) {
    case 'undo':
      return UNDO_TEXT;
    case 'separator':
      return `── ${row.first.importedFrom !== undefined ? `imported from ${oneLine(row.first.importedFrom)}: ` : ''}${sessionName(row.session)} · ${formatTime(row.first.time)} ──`;
    case 'checkpoint': {
      const { checkpoint } = row;
      const gone = checkpoint.unrestorable === true ? '  no longer restorable' : '';
      const time = formatTime(checkpoint.time);
      const title = stepTitle(checkpoint, row.open, short);
      if (compact) return `${time.slice(5, 16)}  ${fileCount(checkpoint, true).padEnd(3)}${gone}  ${title}`;
      return `${time}  ${fileCount(checkpoint).padEnd(10)}${gone}  ${title}`;
    }
  }
}
