import type { KeyEvent } from '../../pty/keys.js';
import { oneLine } from '../../shared/format.js';

/** What a key means to the picker. */
export type PickerKey = { type: MoveKey } | { type: ActionKey } | { type: 'text'; text: string };

/** Keys that move the selection. */
export type MoveKey = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end';

const MOVE_KEYS: ReadonlySet<string> = new Set<MoveKey>(['up', 'down', 'pageUp', 'pageDown', 'home', 'end']);

/** Whether `key` moves (the selection, or a panel's lines). */
export function isMoveKey(key: PickerKey): key is { type: MoveKey } {
  return MOVE_KEYS.has(key.type);
}

/** Where a move key takes a position in 0..last (a page is `page` rows); undefined: not a move key. */
export function moved(key: PickerKey, at: number, last: number, page: number): number | undefined {
  const by: Partial<Record<PickerKey['type'], number>> = { up: at - 1, down: at + 1, pageUp: at - page, pageDown: at + page, home: 0, end: last };
  const to = by[key.type];
  return to === undefined ? undefined : Math.max(0, Math.min(last, to));
}
/** Keys that act: Enter, Esc, Backspace, Ctrl+U (clear the filter), Ctrl+C, → open and ← fold a turn, Tab (pick files). */
export type ActionKey = 'enter' | 'esc' | 'backspace' | 'clear' | 'interrupt' | 'open' | 'fold' | 'tab';

const SEQUENCES: Record<string, MoveKey | 'open' | 'fold'> = {
  '\x1b[C': 'open',
  '\x1bOC': 'open',
  '\x1b[D': 'fold',
  '\x1bOD': 'fold',
  '\x1b[A': 'up',
  '\x1bOA': 'up',
  '\x1b[B': 'down',
  '\x1bOB': 'down',
  '\x1b[5~': 'pageUp',
  '\x1b[6~': 'pageDown',
  '\x1b[H': 'home',
  '\x1b[1~': 'home',
  '\x1b[7~': 'home',
  '\x1bOH': 'home',
  '\x1b[F': 'end',
  '\x1b[4~': 'end',
  '\x1b[8~': 'end',
  '\x1bOF': 'end',
};

const CONTROLS: Record<string, ActionKey> = {
  '\x7f': 'backspace',
  '\b': 'backspace',
  '\x15': 'clear', // Ctrl+U
  '\x03': 'interrupt', // Ctrl+C
  '\t': 'tab',
};

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** Where the escape sequence at `start` ends (CSI up to its final byte, SS3 three bytes). */
function sequenceEnd(data: string, start: number): number {
  const next = data[start + 1];
  if (next === 'O') return Math.min(start + 3, data.length);
  if (next !== '[') return Math.min(start + 2, data.length); // Alt + a key
  for (let j = start + 2; j < data.length; j += 1) {
    const code = data.charCodeAt(j);
    if (code >= 0x40 && code <= 0x7e) return j + 1;
    if (code < 0x20 || code > 0x3f) return j;
  }
  return data.length;
}

/**
 * The picker's keys in one KeyEvent, in order. A `data` event can hold several keys (key
 * repeat delivers `\x1b[B\x1b[B` in one read); escape sequences the picker does not use are
 * dropped, never typed into the filter; a bracketed paste is text on one line.
 */
export function pickerKeys(event: KeyEvent): PickerKey[] {
  if (event.type === 'enter') return [{ type: 'enter' }];
  if (event.type === 'esc') return [{ type: 'esc' }];
  if (event.type === 'command' || event.type === 'release') return [];
  const { data } = event;
  const keys: PickerKey[] = [];
  let text = '';
  const push = (key: PickerKey): void => {
    if (text !== '') keys.push({ type: 'text', text });
    text = '';
    keys.push(key);
  };
  let i = 0;
  while (i < data.length) {
    const c = data[i] as string;
    if (data.startsWith(PASTE_START, i)) {
      const endAt = data.indexOf(PASTE_END, i);
      const end = endAt < 0 ? data.length : endAt;
      // A pasted line break is a space in the filter.
      text += oneLine(data.slice(i + PASTE_START.length, end));
      i = endAt < 0 ? data.length : end + PASTE_END.length;
    } else if (c === '\x1b') {
      if (data[i + 1] === '\x1b') {
        i += 1; // Alt + a key with a sequence: read the sequence as the key
        continue;
      }
      const end = sequenceEnd(data, i);
      const type = SEQUENCES[data.slice(i, end)];
      if (type !== undefined) push({ type });
      i = end;
    } else {
      const control = CONTROLS[c];
      if (control !== undefined) push({ type: control });
      else if (c === '\r') push({ type: 'enter' });
      else if (c >= ' ') text += c;
      i += 1;
    }
  }
  if (text !== '') keys.push({ type: 'text', text });
  return keys;
}
