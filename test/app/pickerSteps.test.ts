// The picker on the session's steps: where it opens, folding a turn's steps, taking back a
// filter that matched nothing, new counts before the first key, a restore that would change nothing.
import { describe, expect, it } from 'vitest';
import type { KeyEvent } from '../../src/pty/keys.js';
import { initialPickerState, pickerReducer, visibleRows, type PickerEnv, type PickerState } from '../../src/app/picker/pickerReducer.js';
import { rowText } from '../../src/app/picker/pickerRows.js';
import type { PickerCheckpoint } from '../../src/app/picker/types.js';
import { allModes, demoSteps } from './pickerFixtures.js';

const data = (d: string): KeyEvent => ({ type: 'data', data: d, bytes: Buffer.from(d) });
const enter: KeyEvent = { type: 'enter' };
const esc: KeyEvent = { type: 'esc' };
const up = data('\x1b[A');
const left = data('\x1b[D');
const right = data('\x1b[C');

function envOf(list: readonly PickerCheckpoint[], over: Partial<PickerEnv> = {}): PickerEnv {
  return { checkpoints: list, canUndo: false, listHeight: 10, modes: allModes, ...over };
}

function run(env: PickerEnv, events: KeyEvent[], from = initialPickerState(env)): PickerState {
  return events.reduce((state, event) => pickerReducer(state, { type: 'key', event, env }), from);
}

const selected = (state: PickerState, env: PickerEnv) => {
  const row = visibleRows(state, env)[state.selected];
  return row?.kind === 'checkpoint' ? row.checkpoint.label : row?.kind;
};
const shown = (state: PickerState, env: PickerEnv) => visibleRows(state, env).map((row) => (row.kind === 'checkpoint' ? row.checkpoint.id : row.kind));

describe('the picker on the steps of a session', () => {
  const env = envOf(demoSteps());

  it("opens on the last step that changed files, its turn open and the older one folded; one ↑ reaches the step before it", () => {
    const state = initialPickerState(env);
    expect(selected(state, env)).toBe('Edit package.json');
    expect(shown(state, env)).toEqual([1, 2, 6, 7, 8]);
    expect(selected(run(env, [up]), env)).toBe('Bash rm -rf tests');
    expect(selected(run(env, [up, up]), env)).toBe('2');
  });

  it('Enter then f undoes exactly that step: the files of Edit package.json', () => {
    expect(run(env, [enter, data('f')]).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 8, mode: 'files' } });
    expect(run(env, [up, enter, data('f')]).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 7, mode: 'files' } });
  });

  it('→ opens a folded turn, ← folds it (from one of its steps: goes up to it)', () => {
    const onFirst = run(env, [data('\x1b[H'), data('\x1b[B')]);
    expect(selected(onFirst, env)).toBe('1');
    const opened = run(env, [right], onFirst);
    expect(shown(opened, env)).toEqual([1, 2, 3, 4, 6, 7, 8]);
    const folded = run(env, [left], run(env, [data('\x1b[B')], opened));
    expect(selected(folded, env)).toBe('1');
    expect(shown(folded, env)).toEqual([1, 2, 6, 7, 8]);
    expect(shown(run(env, [left]), env)).toEqual([1, 2, 6]);
  });

  it('a filter finds folded steps too', () => {
    expect(shown(run(env, [data('server.js')]), env)).toEqual([2, 3]);
  });

  it('Esc on a filter that matched nothing goes back to the row chosen before it, never the newest', () => {
    const chosen = run(env, [up]);
    const nothing = run(env, [data('zzz')], chosen);
    expect(nothing.selected).toBe(-1);
    const back = run(env, [esc], nothing);
    expect(back.filter).toBe('');
    expect(selected(back, env)).toBe('Bash rm -rf tests');
    expect(run(env, [enter, data('f')], back).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 7, mode: 'files' } });
    // A step found in a folded turn stays selected once the filter is taken back: its turn opens.
    const found = run(env, [esc], run(env, [data('Write server')]));
    expect(selected(found, env)).toBe('Write server.config.json');
    expect(shown(found, env)).toEqual([1, 2, 3, 4, 6, 7, 8]);
  });

  it('new counts before any key choose the opening row anew; after a key they do not', () => {
    const unknown = demoSteps().map((step) => (step.id === 8 ? { ...step, files: null } : step));
    const early = initialPickerState(envOf(unknown));
    expect(selected(early, envOf(unknown))).toBe('Bash rm -rf tests');
    const counted = envOf(demoSteps());
    expect(selected(pickerReducer(early, { type: 'rows', env: counted }), counted)).toBe('Edit package.json');
    const moved = run(envOf(unknown), [up], early);
    expect(selected(pickerReducer(moved, { type: 'rows', env: counted }), counted)).toBe('2');
  });

  it('a restore that would change no file is not offered: f and b say so, c still restores the conversation', () => {
    const same = envOf(demoSteps(), { unchanged: (id) => id === 8 });
    const refused = run(same, [enter, data('f')]);
    expect(refused.outcome).toBeUndefined();
    expect(refused.notice).toBe('restore files only is not available: nothing to change: the files already match it');
    expect(run(same, [enter, data('b')]).notice).toMatch(/the files already match it: c restores the conversation alone/);
    expect(run(same, [enter]).mode).toBe(2);
    expect(run(same, [enter, data('c')]).outcome).toEqual({ type: 'choose', choice: { kind: 'restore', id: 8, mode: 'conversation' } });
  });

  it('says a turn, its steps under it and its count as that of the whole turn', () => {
    const rows = visibleRows(initialPickerState(env), env);
    expect(rows.map((row) => rowText(row))).toEqual([
      '2026-01-15 14:30:23  0 files     session start',
      '2026-01-15 14:31:23  2 files     ▸ prompt: 1  (2 steps)',
      '2026-01-15 14:32:23  3 files     ▾ prompt: 2  (2 steps)',
      '2026-01-15 14:32:23  2 files         Bash rm -rf tests',
      '2026-01-15 14:32:23  1 file          Edit package.json',
    ]);
  });
});
