import type { KeyEvent } from '../../pty/keys.js';
import { modeOptions, type ModeOption } from './modeOptions.js';
import { moved, pickerKeys, type PickerKey } from './pickerKeys.js';
import { filesKey, startPicking } from './pickFiles.js';
import { hasSteps, isSelectable, NO_TURNS, rowsFor, stickyUndo, type PickerRow } from './pickerRows.js';
import { likelyUndo } from '../../shared/likelyUndo.js';
import type { PickerCheckpoint } from './types.js';
import type { PickerEnv, PickerState } from './pickerState.js';

export type { PickerEnv, PickerOutcome, PickerState } from './pickerState.js';

/** A key, or new rows (the newest step's count came in): the selection follows them until a key moved it. */
export type PickerAction = { type: 'key'; event: KeyEvent; env: PickerEnv } | { type: 'rows'; env: PickerEnv & { selectId?: number } };

/** The rows visible under `state`'s filter and open turns. */
export function visibleRows(state: Pick<PickerState, 'filter'> & { open?: ReadonlySet<number> }, env: Pick<PickerEnv, 'checkpoints' | 'canUndo'>): PickerRow[] {
  return rowsFor(env.checkpoints, env.canUndo, state.filter, state.open ?? NO_TURNS);
}

/** `open` with the turn of `checkpoint` opened, so the step is in the list. */
function opening(open: ReadonlySet<number>, checkpoint: PickerCheckpoint | undefined): ReadonlySet<number> {
  if (checkpoint?.turn === undefined || open.has(checkpoint.turn)) return open;
  return new Set([...open, checkpoint.turn]);
}

const rowIndex = (rows: readonly PickerRow[], key: number | 'undo' | undefined): number =>
  key === undefined ? -1 : rows.findIndex((row) => (key === 'undo' ? row.kind === 'undo' : row.kind === 'checkpoint' && row.checkpoint.id === key));

const keyOf = (row: PickerRow | undefined): number | 'undo' | undefined => (row?.kind === 'undo' ? 'undo' : row?.kind === 'checkpoint' ? row.checkpoint.id : undefined);

function lastSelectable(rows: readonly PickerRow[]): number {
  for (let i = rows.length - 1; i >= 0; i -= 1) if (isSelectable(rows[i])) return i;
  return -1;
}

/** The selectable row nearest `from` going `direction` (±1), or -1. */
function nearest(rows: readonly PickerRow[], from: number, direction: 1 | -1): number {
  for (let i = from; i >= 0 && i < rows.length; i += direction) if (isSelectable(rows[i])) return i;
  return -1;
}

/**
 * `top` moved just enough to show `selected` (and a separator right above it). The undo row,
 * when it heads the rows, is always in view (rowsInView): selecting it scrolls nothing, and
 * scrolled down the first other row in view is the one after `top`.
 */
function scrolled(selected: number, top: number, rows: readonly PickerRow[], height: number): number {
  const h = Math.max(1, height);
  const sticky = stickyUndo(rows, h);
  const clamp = (next: number) => Math.max(0, Math.min(next, rows.length - h));
  if (sticky && selected === 0) return clamp(top);
  // The first row in view below the undo row, from `at`.
  const firstShown = (at: number) => (sticky && at > 0 ? at + 1 : at);
  let next = top;
  if (selected < firstShown(next)) next = sticky ? Math.max(0, selected - 1) : selected;
  if (selected >= next + h) next = selected - h + 1;
  // Room for the separator and the row (under the undo row, when it stays on top).
  if (firstShown(next) === selected && selected > 0 && h > (sticky ? 2 : 1) && rows[selected - 1]?.kind === 'separator') next = sticky ? Math.max(0, selected - 2) : selected - 1;
  return clamp(next);
}

/**
 * `state` made consistent with `rows` (which can change under it: a filter, new props): the
 * selection on a selectable row (the nearest one, else the newest) and in view.
 */
export function normalize(state: PickerState, rows: readonly PickerRow[], height: number, diff?: { length: number; height: number }): PickerState {
  let selected = state.selected;
  if (!isSelectable(rows[selected])) {
    selected = nearest(rows, Math.min(Math.max(selected, 0), rows.length - 1), -1);
    if (selected < 0) selected = lastSelectable(rows);
  }
  const top = selected < 0 ? 0 : scrolled(selected, state.top, rows, height);
  const stage = state.stage !== 'list' && rows[selected]?.kind !== 'checkpoint' ? 'list' : state.stage;
  // A diff or plan scrolled to its end stays at its end when it gets fewer lines (a wider pane wraps less) or more room.
  const diffEnd = diff ? Math.max(0, diff.length - diff.height) : undefined;
  const diffTop = diffEnd !== undefined && (state.diffTop ?? 0) > diffEnd ? diffEnd : state.diffTop;
  if (selected === state.selected && top === state.top && stage === state.stage && diffTop === state.diffTop) return state;
  return { ...state, selected, top, stage, ...(diffTop !== undefined ? { diffTop } : {}) };
}

/**
 * The picker as it opens: no filter, the step most likely to be undone selected (its turn
 * open) and the newest rows in view at the bottom, or checkpoint `selectId` when given
 * (bisect's first bad one). When that step is the last rewind's own (its checkpoint is the
 * one undoing that rewind goes back to) and no step since changed a file, the undo row,
 * which undoes it.
 */
export function initialPickerState(env: PickerEnv & { selectId?: number }): PickerState {
  const given = env.selectId === undefined ? undefined : env.checkpoints.find((checkpoint) => checkpoint.id === env.selectId);
  const target = given ?? likelyUndo(env.checkpoints);
  const open = opening(NO_TURNS, target);
  const rows = visibleRows({ filter: '', open }, env);
  const bottom = Math.max(0, rows.length - Math.max(1, env.listHeight));
  const { undoPoint } = env;
  // And every row after it is known to have changed no file (a count still unknown may yet say one did).
  const rewound = given === undefined && env.canUndo && undoPoint !== undefined && target?.id === undoPoint && env.checkpoints.every((checkpoint) => checkpoint.id <= undoPoint || checkpoint.files === 0);
  const wanted = rowIndex(rows, rewound ? 'undo' : target?.id);
  if (wanted >= 0) return { filter: '', selected: wanted, top: scrolled(wanted, bottom, rows, env.listHeight), stage: 'list', mode: 0, open };
  return { filter: '', selected: lastSelectable(rows), top: bottom, stage: 'list', mode: 0, open };
}

function select(state: PickerState, selected: number, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  if (selected < 0) return state;
  return { ...state, selected, top: scrolled(selected, state.top, rows, env.listHeight) };
}

/**
 * A new filter: the selected row stays selected if it is still visible (its turn opened when
 * the filter is taken back). When it is not, the row selected before the filter was started
 * is, and only then the newest: a filter that matched nothing never leaves the selection on
 * a row the user did not choose.
 */
function refilter(state: PickerState, filter: string, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  if (filter === state.filter) return state;
  const current = keyOf(rows[state.selected]);
  const beforeFilter = state.filter === '' ? current : state.beforeFilter;
  // Taking back a filter that matched nothing: the row chosen before it.
  const key = current ?? (filter === '' ? beforeFilter : undefined);
  const checkpoint = typeof key === 'number' ? env.checkpoints.find((entry) => entry.id === key) : undefined;
  const open = filter === '' ? opening(state.open, checkpoint) : state.open;
  const next = visibleRows({ filter, open }, env);
  let selected = rowIndex(next, key);
  const kept = { ...state, filter, open, ...(filter === '' ? { beforeFilter: undefined } : { beforeFilter }) };
  if (selected < 0) {
    selected = lastSelectable(next);
    return { ...kept, selected, top: Math.max(0, next.length - Math.max(1, env.listHeight)) };
  }
  return { ...kept, selected, top: scrolled(selected, state.top, next, env.listHeight) };
}

/** → opens the selected turn; ← folds it, or from one of its steps goes up to it (and folds it). */
function fold(state: PickerState, opened: boolean, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  const row = rows[state.selected];
  if (row?.kind !== 'checkpoint' || state.filter !== '') return state;
  const { checkpoint } = row;
  const turnId = hasSteps(checkpoint) ? checkpoint.id : !opened ? checkpoint.turn : undefined;
  if (turnId === undefined || state.open.has(turnId) === opened) return turnId === undefined || opened ? state : reselect(state, state.open, turnId, env);
  const open = new Set(state.open);
  if (opened) open.add(turnId);
  else open.delete(turnId);
  return reselect(state, open, turnId, env);
}

function reselect(state: PickerState, open: ReadonlySet<number>, id: number, env: PickerEnv): PickerState {
  const next = visibleRows({ filter: state.filter, open }, env);
  const selected = rowIndex(next, id);
  return { ...state, open, selected, top: scrolled(selected, state.top, next, env.listHeight) };
}

function selectedOptions(state: PickerState, rows: readonly PickerRow[], env: PickerEnv): { checkpoint: PickerCheckpoint; options: ModeOption[] } | undefined {
  const row = rows[state.selected];
  if (row?.kind !== 'checkpoint') return undefined;
  return { checkpoint: row.checkpoint, options: modeOptions(row.checkpoint, env.modes(row.checkpoint.id), env.unchanged?.(row.checkpoint.id) === true) };
}

function choose(state: PickerState, checkpoint: PickerCheckpoint, option: ModeOption): PickerState {
  if (!option.enabled) return { ...state, notice: `${option.label} is not available: ${option.reason ?? 'this checkpoint does not allow it'}` };
  return { ...state, outcome: { type: 'choose', choice: { kind: 'restore', id: checkpoint.id, mode: option.mode } } };
}

function listKey(state: PickerState, key: PickerKey, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  const page = Math.max(1, env.listHeight);
  const last = rows.length - 1;
  switch (key.type) {
    case 'up':
      return select(state, nearest(rows, state.selected - 1, -1), rows, env);
    case 'down':
      return select(state, nearest(rows, state.selected + 1, 1), rows, env);
    case 'pageUp': {
      const target = Math.max(0, state.selected - page);
      const up = nearest(rows, target, -1);
      return select(state, up >= 0 ? up : nearest(rows, target, 1), rows, env);
    }
    case 'pageDown': {
      const target = Math.min(last, state.selected + page);
      const down = nearest(rows, target, 1);
      return select(state, down >= 0 ? down : nearest(rows, target, -1), rows, env);
    }
    case 'home': {
      const first = nearest(rows, 0, 1);
      return first < 0 ? state : { ...state, selected: first, top: 0 };
    }
    case 'end':
      return select(state, lastSelectable(rows), rows, env);
    case 'enter': {
      const row = rows[state.selected];
      if (row?.kind === 'undo') return { ...state, outcome: { type: 'choose', choice: { kind: 'undo' } } };
      const found = selectedOptions(state, rows, env);
      if (found === undefined) return state;
      const first = found.options.findIndex((option) => option.enabled);
      return { ...state, stage: 'modes', mode: Math.max(0, first) };
    }
    case 'esc':
      // Esc takes back a filter first, so one stray Esc never loses the typed text and the list.
      return state.filter !== '' ? refilter(state, '', rows, env) : { ...state, outcome: { type: 'close' } };
    case 'interrupt':
      return { ...state, outcome: { type: 'close' } };
    case 'open':
    case 'fold':
      return fold(state, key.type === 'open', rows, env);
    case 'tab':
      return startPicking(state, rows, env);
    case 'backspace':
      return refilter(state, Array.from(state.filter).slice(0, -1).join(''), rows, env);
    case 'clear':
      return refilter(state, '', rows, env);
    case 'text':
      // `d` with no filter typed: the selected step's own diff (a filter can start with d after a space).
      if (key.text === 'd' && state.filter === '' && env.canDiff && rows[state.selected]?.kind === 'checkpoint') return { ...state, stage: 'diff', diffTop: 0 };
      // `u`: revert only this step (keep the later ones), its plan first.
      if (key.text === 'u' && state.filter === '' && env.canRevert && rows[state.selected]?.kind === 'checkpoint') return { ...state, stage: 'revert', diffTop: 0, revertRequest: (state.revertRequest ?? 0) + 1 };
      return refilter(state, state.filter + key.text, rows, env);
  }
}

/** The diff view's keys: scroll it; Esc, `d` or `q` go back to the list; Ctrl+C closes. */
function diffKey(state: PickerState, key: PickerKey, env: PickerEnv): PickerState {
  const page = Math.max(1, (env.diffHeight ?? env.listHeight) - 1);
  const end = Math.max(0, (env.diffLength ?? 0) - (env.diffHeight ?? env.listHeight));
  const to = (top: number): PickerState => ({ ...state, diffTop: Math.max(0, Math.min(end, top)) });
  const top = Math.min(state.diffTop ?? 0, end);
  const scroll = moved(key, top, end, page);
  if (scroll !== undefined) return to(scroll);
  switch (key.type) {
    case 'esc':
      return { ...state, stage: 'list' };
    case 'interrupt':
      return { ...state, outcome: { type: 'close' } };
    case 'text':
      if (key.text === ' ') return to(top + page);
      return key.text === 'd' || key.text === 'q' ? { ...state, stage: 'list' } : state;
    default:
      return state;
  }
}

/**
 * The revert plan's keys: with no conflict y or Enter reverts; with conflicts k (the rest
 * written, the conflicted files as they are) or m (with conflict markers); Esc, u or q go
 * back to the list; the rest scroll as in the diff.
 */
function revertKey(state: PickerState, key: PickerKey, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  const row = rows[state.selected];
  if (row?.kind !== 'checkpoint') return { ...state, stage: 'list' };
  const id = row.checkpoint.id;
  const conflicts = env.revertConflicts;
  const revert = (choice: 'keep' | 'markers' | undefined): PickerState => ({ ...state, outcome: { type: 'choose', choice: { kind: 'revert', id, ...(choice ? { conflicts: choice } : {}) } } });
  // One key at a time: a paste that ends in y, k or m reverts nothing.
  const letter = key.type === 'text' ? (key.text.length === 1 ? key.text.toLowerCase() : undefined) : key.type === 'enter' ? 'y' : undefined;
  if (letter === 'u' || letter === 'q') return { ...state, stage: 'list' };
  if (letter === 'd') return state;
  if (letter !== undefined && conflicts !== undefined) {
    if (conflicts === 0 && letter === 'y') return revert(undefined);
    if (conflicts > 0 && (letter === 'k' || letter === 'm')) return revert(letter === 'k' ? 'keep' : 'markers');
    if (conflicts > 0 && letter === 'y') return { ...state, notice: `${conflicts} file(s) conflict: k keeps them as they are, m writes markers` };
  }
  return diffKey(state, key, env);
}

function modesKey(state: PickerState, key: PickerKey, rows: readonly PickerRow[], env: PickerEnv): PickerState {
  const found = selectedOptions(state, rows, env);
  if (found === undefined) return { ...state, stage: 'list' };
  const { checkpoint, options } = found;
  const step = (direction: 1 | -1): PickerState => {
    for (let i = state.mode + direction; i >= 0 && i < options.length; i += direction) {
      if (options[i]?.enabled === true) return { ...state, mode: i };
    }
    return state;
  };
  switch (key.type) {
    case 'up':
      return step(-1);
    case 'down':
      return step(1);
    case 'enter': {
      const option = options[state.mode];
      return option === undefined ? state : choose(state, checkpoint, option);
    }
    case 'esc':
      return { ...state, stage: 'list' };
    case 'interrupt':
      return { ...state, outcome: { type: 'close' } };
    case 'text': {
      // The letters pick directly; the first one that names a mode counts.
      for (const letter of key.text.toLowerCase()) {
        const option = options.find((o) => o.key === letter);
        if (option !== undefined) return choose(state, checkpoint, option);
      }
      return state;
    }
    default:
      return state;
  }
}

/**
 * The picker's reducer: applies one key event (which may hold several keys) to the state.
 * Pure: choosing or closing is returned as `outcome`, which the component reports. No
 * wrap-around at either end of the list or of the mode menu.
 */
export function pickerReducer(state: PickerState, action: PickerAction): PickerState {
  const { env } = action;
  if (action.type === 'rows') {
    if (state.moved === true || state.outcome !== undefined) return state;
    return initialPickerState(action.env);
  }
  if (state.outcome !== undefined) return state;
  let next: PickerState = state.moved === true ? state : { ...state, moved: true };
  for (const key of pickerKeys(action.event)) {
    if (next.outcome !== undefined) break;
    const rows = visibleRows(next, env);
    const current = normalize(next.notice === undefined ? next : { ...next, notice: undefined }, rows, env.listHeight);
    if (current.stage === 'diff') next = diffKey(current, key, env);
    else if (current.stage === 'revert') next = revertKey(current, key, rows, env);
    else if (current.stage === 'files') next = filesKey(current, key, rows, env);
    else next = current.stage === 'list' ? listKey(current, key, rows, env) : modesKey(current, key, rows, env);
  }
  return next;
}
