// The picker's file picking (Tab on a row): the files a restore of it would change, each
// ticked or not, and a files-only restore of the ticked ones (the picker's `--only`).
import { moved, type PickerKey } from './pickerKeys.js';
import type { PickerEnv, PickerState } from './pickerState.js';
import type { PickerRow } from './pickerRows.js';

/** What Tab on the list does: the selected row's files to pick from, when its preview has any and it can restore files. */
export function startPicking(state: PickerState, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  const row = rows[state.selected];
  if (row?.kind !== 'checkpoint' || (env.previewFiles?.length ?? 0) === 0) return state;
  if (!env.modes(row.checkpoint.id).files.enabled || row.checkpoint.unrestorable === true) return state;
  return { ...state, stage: 'files', fileCursor: 0, unticked: new Set() };
}

/** The ticked files of `files` under `state`. */
export function tickedOf(state: Pick<PickerState, 'unticked'>, files: readonly string[]): string[] {
  const unticked = state.unticked ?? new Set<string>();
  return files.filter((file) => !unticked.has(file));
}

/**
 * The file list's keys: ↑↓ PgUp PgDn Home End move, Space ticks or unticks, `a` ticks all (or
 * none, when all are), `s` ticks only this session's (what its own steps changed since the
 * checkpoint, no one else's), Enter restores the ticked files (files only), Esc or Tab go back.
 */
export function filesKey(state: PickerState, key: PickerKey, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  const row = rows[state.selected];
  const files = env.previewFiles ?? [];
  if (row?.kind !== 'checkpoint' || files.length === 0) return { ...state, stage: 'list' };
  const last = files.length - 1;
  const cursor = Math.min(state.fileCursor ?? 0, last);
  const page = Math.max(1, env.listHeight - 1);
  const to = moved(key, cursor, last, page);
  if (to !== undefined) return { ...state, fileCursor: to };
  switch (key.type) {
    case 'esc':
    case 'tab':
      return { ...state, stage: 'list' };
    case 'interrupt':
      return { ...state, outcome: { type: 'close' } };
    case 'enter': {
      const ticked = tickedOf(state, files);
      if (ticked.length === 0) return { ...state, notice: 'no file is ticked: Space ticks the one under the cursor, a ticks all' };
      const only = ticked.length === files.length ? {} : { only: ticked };
      return { ...state, outcome: { type: 'choose', choice: { kind: 'restore', id: row.checkpoint.id, mode: 'files', ...only } } };
    }
    case 'text': {
      let next = state;
      for (const letter of key.text) {
        const unticked = new Set(next.unticked ?? []);
        if (letter === ' ') {
          const file = files[cursor] as string;
          if (unticked.has(file)) unticked.delete(file);
          else unticked.add(file);
        } else if (letter === 's' && env.sessionFiles !== undefined) {
          const mine = new Set(env.sessionFiles);
          unticked.clear();
          for (const file of files) if (!mine.has(file)) unticked.add(file);
        } else if (letter === 'a') {
          const all = unticked.size === 0;
          unticked.clear();
          if (all) for (const file of files) unticked.add(file);
        } else continue;
        next = { ...next, unticked };
      }
      return next;
    }
    default:
      return state;
  }
}
