import { describe, expect, it } from 'vitest';
import type { KeyEvent } from '../../src/pty/keys.js';
import { pickerKeys } from '../../src/app/picker/pickerKeys.js';
import { initialPickerState, normalize, pickerReducer, visibleRows, type PickerEnv, type PickerState } from '../../src/app/picker/pickerReducer.js';
import type { PickerCheckpoint } from '../../src/app/picker/types.js';
import { rowsInView } from '../../src/app/picker/pickerRows.js';
import { allModes, checkpoints, noConversation } from './pickerFixtures.js';

const data = (d: string): KeyEvent => ({ type: 'data', data: d, bytes: Buffer.from(d) });
const enter: KeyEvent = { type: 'enter' };
const esc: KeyEvent = { type: 'esc' };

function envOf(list: readonly PickerCheckpoint[], over: Partial<PickerEnv> = {}): PickerEnv {
  return { checkpoints: list, canUndo: false, listHeight: 5, modes: allModes, ...over };
}

function run(env: PickerEnv, events: KeyEvent[], from = initialPickerState(env)): PickerState {
  return events.reduce((state, event) => pickerReducer(state, { type: 'key', event, env }), from);
}

/** The id (or kind) of the selected row. */
function selectedOf(state: PickerState, env: PickerEnv): number | string | undefined {
  const row = visibleRows(state, env)[state.selected];
  return row === undefined ? undefined : row.kind === 'checkpoint' ? row.checkpoint.id : row.kind;
}

describe('pickerKeys', () => {
  it('reads arrows in both cursor modes, paging, Home/End in their spellings, Backspace, Ctrl+C', () => {
    const types = (d: string) => pickerKeys(data(d)).map((k) => k.type);
    expect(types('\x1b[A\x1bOA\x1b[B\x1bOB')).toEqual(['up', 'up', 'down', 'down']);
    expect(types('\x1b[5~\x1b[6~')).toEqual(['pageUp', 'pageDown']);
    expect(types('\x1b[H\x1b[1~\x1bOH\x1b[F\x1b[4~\x1bOF')).toEqual(['home', 'home', 'home', 'end', 'end', 'end']);
    expect(types('\x7f\b\x03\x15')).toEqual(['backspace', 'backspace', 'interrupt', 'clear']);
  });

  it('types printable text, drops unknown sequences, flattens a paste', () => {
    expect(pickerKeys(data('ab\x1b[1;5Dc\x1b[1;5Cd'))).toEqual([{ type: 'text', text: 'abcd' }]);
    expect(pickerKeys(data('\x1b[C\x1bOC\x1b[D\x1bOD')).map((k) => k.type)).toEqual(['open', 'open', 'fold', 'fold']);
    expect(pickerKeys(data('\x1b[200~src/\ndb.ts\x1b[201~'))).toEqual([{ type: 'text', text: 'src/ db.ts' }]);
    expect(pickerKeys({ type: 'command' })).toEqual([]);
  });
});

describe('pickerReducer: moving', () => {
  const env = envOf(checkpoints(20));

  it('opens on the newest row, with the bottom of the list in view', () => {
    const state = initialPickerState(env);
    expect(selectedOf(state, env)).toBe(20);
    expect(state.top).toBe(15);
    expect(state.stage).toBe('list');
  });

  it('opens on the last row that changed files; a turn whose steps changed none but whose own part did is that row', () => {
    const rows = checkpoints(4, (id) =>
      id === 3 ? { kind: 'turn', steps: 1, files: 1 } : id === 4 ? { kind: 'tool', turn: 3, files: 0 } : id === 2 ? { files: 2 } : { kind: 'start', files: 0 },
    );
    const turnEnv = envOf(rows);
    expect(selectedOf(initialPickerState(turnEnv), turnEnv)).toBe(3);
    // Its step changed a file: the step, the turn opened to show it.
    const stepEnv = envOf(rows.map((row) => (row.id === 4 ? { ...row, files: 1 } : row)));
    expect(selectedOf(initialPickerState(stepEnv), stepEnv)).toBe(4);
  });

  it('moves with ↑/↓ and does not wrap at either end', () => {
    expect(selectedOf(run(env, [data('\x1b[B')]), env)).toBe(20);
    expect(selectedOf(run(env, [data('\x1b[A'), data('\x1bOA')]), env)).toBe(18);
    const top = run(env, [data('\x1b[H'), data('\x1b[A')]);
    expect(selectedOf(top, env)).toBe(1);
    expect(top.top).toBe(0);
  });

  it('pages by the list height and keeps the selection in view', () => {
    const up = run(env, [data('\x1b[5~')]);
    expect(selectedOf(up, env)).toBe(15);
    expect(up.top).toBeLessThanOrEqual(up.selected);
    expect(up.selected).toBeLessThan(up.top + env.listHeight);
    const far = run(env, [data('\x1b[5~'.repeat(10))]);
    expect(selectedOf(far, env)).toBe(1);
    expect(selectedOf(run(env, [data('\x1b[5~'), data('\x1b[6~\x1b[6~')]), env)).toBe(20);
  });

  it('goes Home and End, and reads several keys in one read', () => {
    const home = run(env, [data('\x1b[1~')]);
    expect(selectedOf(home, env)).toBe(1);
    expect(home.top).toBe(0);
    const end = run(env, [data('\x1b[H\x1b[B\x1b[B'), data('\x1b[4~')], home);
    expect(selectedOf(end, env)).toBe(20);
    expect(end.top).toBe(15);
  });

  it('never selects a separator and shows the separator above the selection at the top edge', () => {
    const two = envOf(checkpoints(10, (id) => ({ session: id <= 5 ? 'a' : 'b' })));
    // rows: 1..5, separator (index 5), 6..10
    let state = run(two, [data('\x1b[A'.repeat(4))]);
    expect(selectedOf(state, two)).toBe(6);
    state = run(two, [data('\x1b[A')], state);
    expect(selectedOf(state, two)).toBe(5);
    const atSix = run(two, [data('\x1b[H\x1b[6~')]);
    expect(selectedOf(atSix, two)).toBe(6); // a page down from 1 lands on the separator: the next row
    const back = run(two, [data('\x1b[A'.repeat(9) + '\x1b[B'.repeat(5))]);
    expect(selectedOf(back, two)).toBe(6);
  });
});

describe('pickerReducer: filtering', () => {
  const list = checkpoints(30, (id) => ({ label: id % 10 === 0 ? `auth step ${id}` : `step ${id}`, paths: id === 7 ? ['src/db.ts'] : [] }));
  const env = envOf(list, { canUndo: true });

  it('types into the filter, keeps the newest match selected, and Backspace widens it again', () => {
    let state = run(env, [data('AUTH')]);
    expect(state.filter).toBe('AUTH');
    expect(visibleRows(state, env).map((r) => (r.kind === 'checkpoint' ? r.checkpoint.id : r.kind))).toEqual([10, 20, 30]);
    expect(selectedOf(state, env)).toBe(30);
    state = run(env, [data('\x1b[A')], state);
    expect(selectedOf(state, env)).toBe(20);
    state = run(env, [data('\x7f\x7f\x7f\x7f')], state);
    expect(state.filter).toBe('');
    expect(selectedOf(state, env)).toBe(20); // the selected row stays selected
  });

  it('filters by path', () => {
    expect(selectedOf(run(env, [data('db.ts')]), env)).toBe(7);
  });

  it('Esc clears a filter first, then closes; Ctrl+C closes at once', () => {
    const cleared = run(env, [data('auth'), esc]);
    expect(cleared.filter).toBe('');
    expect(cleared.outcome).toBeUndefined();
    expect(run(env, [data('auth'), esc, esc]).outcome).toEqual({ type: 'close' });
    expect(run(env, [data('auth\x03')]).outcome).toEqual({ type: 'close' });
  });

  it('with nothing matching, selects nothing and Enter does nothing', () => {
    const state = run(env, [data('zzz'), enter]);
    expect(state.selected).toBe(-1);
    expect(state.stage).toBe('list');
    expect(state.outcome).toBeUndefined();
  });
});

describe('pickerReducer: choosing', () => {
  const env = envOf(checkpoints(3), { canUndo: true });

  it('chooses undo on the undo row', () => {
    const state = run(env, [data('\x1b[H'), enter]);
    expect(state.outcome).toEqual({ type: 'choose', choice: { kind: 'undo' } });
  });

  it('opens on the undo row when the step most likely undone is the last rewind\'s own; on that step otherwise', () => {
    const rewound = envOf(checkpoints(8), { canUndo: true, undoPoint: 8 });
    const state = initialPickerState(rewound);
    expect(selectedOf(state, rewound)).toBe('undo');
    // The newest rows stay in view under it.
    expect(rowsInView(visibleRows(state, rewound), state.top, rewound.listHeight)).toEqual([0, 5, 6, 7, 8]);
    expect(run(rewound, [enter], state).outcome).toEqual({ type: 'choose', choice: { kind: 'undo' } });
    // Steps made since the rewind (the agent went on): the newest of those.
    expect(selectedOf(initialPickerState({ ...rewound, undoPoint: 6 }), rewound)).toBe(8);
    // The rewind's step changed nothing (its count 0): the step before it, as for any row.
    const emptied = envOf(checkpoints(8, (id) => (id === 8 ? { files: 0 } : {})), { canUndo: true, undoPoint: 8 });
    expect(selectedOf(initialPickerState(emptied), emptied)).toBe(7);
    // A turn since whose prompt's own part changed files (its step changed none): not the undo row.
    const turnSince = envOf(checkpoints(10, (id) => (id === 9 ? { kind: 'turn', steps: 1, files: 2 } : id === 10 ? { turn: 9, files: 0 } : {})), { canUndo: true, undoPoint: 8 });
    expect(selectedOf(initialPickerState(turnSince), turnSince)).not.toBe('undo');
    // A list longer than the view: the undo row stays on the first line, the newest rows under it.
    const long = envOf(checkpoints(20), { canUndo: true, undoPoint: 20 });
    const opened = initialPickerState(long);
    expect(selectedOf(opened, long)).toBe('undo');
    expect(rowsInView(visibleRows(opened, long), opened.top, long.listHeight).map((index) => selectedOf({ ...opened, selected: index }, long))).toEqual(['undo', 17, 18, 19, 20]);
    // ↓ from it goes to the first step and scrolls there; ↑ and End keep the undo row in view.
    const down = run(long, [data('\x1b[B')], opened);
    expect(selectedOf(down, long)).toBe(1);
    expect(down.top).toBe(0);
    const end = run(long, [data('\x1b[F')], down);
    expect(selectedOf(end, long)).toBe(20);
    expect(rowsInView(visibleRows(end, long), end.top, long.listHeight)).toEqual([0, 17, 18, 19, 20]);
    const up = run(long, [data('\x1b[A'.repeat(4))], end);
    expect(selectedOf(up, long)).toBe(16);
    expect(rowsInView(visibleRows(up, long), up.top, long.listHeight)).toEqual([0, 16, 17, 18, 19]);
    // A row given to open on (bisect's) wins.
    expect(selectedOf(initialPickerState({ ...rewound, selectId: 3 }), rewound)).toBe(3);
  });

  it('Enter opens the modes; b/f/c pick directly; ↑/↓ + Enter pick; Esc goes back', () => {
    const modes = run(env, [enter]);
    expect(modes.stage).toBe('modes');
    expect(modes.mode).toBe(0);
    expect(run(env, [data('b')], modes).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 3, mode: 'both' } });
    expect(run(env, [data('F')], modes).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 3, mode: 'files' } });
    expect(run(env, [data('c')], modes).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 3, mode: 'conversation' } });
    expect(run(env, [data('\x1b[B\x1b[B\x1b[B'), enter], modes).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 3, mode: 'conversation' } });
    const back = run(env, [esc], modes);
    expect(back.stage).toBe('list');
    expect(back.outcome).toBeUndefined();
    expect(run(env, [data('\x03')], modes).outcome).toEqual({ type: 'close' });
  });

  it('a disabled mode cannot be picked and says why; the cursor skips it', () => {
    const limited = envOf(checkpoints(3), { modes: noConversation });
    const modes = run(limited, [enter]);
    expect(modes.mode).toBe(1); // files only: the first one enabled
    const refused = run(limited, [data('c')], modes);
    expect(refused.outcome).toBeUndefined();
    expect(refused.notice).toBe('restore conversation only is not available: no conversation stored');
    expect(run(limited, [data('\x1b[A'), enter], modes).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 3, mode: 'files' } });
    expect(run(limited, [data('x')], refused).notice).toBeUndefined(); // the next key clears the notice
  });

  it('an unrestorable checkpoint offers no file modes', () => {
    const gone = envOf(checkpoints(2, (id) => ({ unrestorable: id === 2 })));
    const refused = run(gone, [enter, data('f')]);
    expect(refused.outcome).toBeUndefined();
    expect(refused.notice).toMatch(/no longer restorable/);
    expect(run(gone, [enter, data('c')]).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 2, mode: 'conversation' } });
  });

  it('ignores keys after it is done', () => {
    const done = run(env, [enter, data('f')]);
    expect(run(env, [data('\x1b[A'), enter, data('b')], done)).toBe(done);
  });
});

describe('pickerReducer: the selection is always in view', () => {
  it('whatever the keys, filters, heights, sessions and undo row: the selected row is among the rows drawn, and never more rows than fit', () => {
    // A fixed sequence (the same every run): Park and Miller's generator, exact in doubles.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 16807) % 2147483647;
      return seed % n;
    };
    // Moves, and a filter typed and taken back (`1`, `s`, Backspace).
    const keys = ['\x1b[A', '\x1b[B', '\x1b[5~', '\x1b[6~', '\x1b[H', '\x1b[F', '1', 's', '\x7f', '\x7f'];
    for (let round = 0; round < 200; round += 1) {
      const count = 1 + next(30);
      const list = checkpoints(count, (id) => ({ session: `s${Math.floor(id / (2 + (round % 5)))}` }));
      const env = envOf(list, { canUndo: round % 3 !== 0, listHeight: 1 + next(8), ...(round % 2 === 0 ? { undoPoint: count } : {}) });
      let state = initialPickerState(env);
      for (let press = 0; press < 40; press += 1) {
        state = pickerReducer(state, { type: 'key', event: data(keys[next(keys.length)] as string), env });
        const rows = visibleRows(state, env);
        const drawn = normalize(state, rows, env.listHeight);
        const shown = rowsInView(rows, drawn.top, env.listHeight);
        expect(shown.length).toBeLessThanOrEqual(env.listHeight);
        if (drawn.selected >= 0 || rows.length > 0) expect(shown, `round ${round}, height ${env.listHeight}, ${rows.length} rows`).toContain(drawn.selected);
      }
    }
  });
});

describe('pickerReducer: a diff or revert plan scrolled to its end', () => {
  it('stays at its end when it gets fewer lines (a wider pane wraps less) or more room; the next ↑ moves at once', () => {
    const env = envOf(checkpoints(5), { canDiff: true, diffLength: 100, diffHeight: 10 });
    const atEnd = run(env, [data('d'), data('\x1b[F')]);
    expect(atEnd).toMatchObject({ stage: 'diff', diffTop: 90 });
    const rows = visibleRows(atEnd, env);
    // Widened: 60 lines now.
    expect(normalize(atEnd, rows, env.listHeight, { length: 60, height: 10 }).diffTop).toBe(50);
    // Taller: room for 95 of the 100.
    expect(normalize(atEnd, rows, env.listHeight, { length: 100, height: 95 }).diffTop).toBe(5);
    expect(normalize(atEnd, rows, env.listHeight, { length: 100, height: 10 })).toBe(atEnd);
    // The stored top is still 90 until a key: ↑ goes from the end there is now, not from 90.
    expect(run({ ...env, diffLength: 60 }, [data('\x1b[A')], atEnd).diffTop).toBe(49);
  });
});
