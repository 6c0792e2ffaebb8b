import { describe, expect, it } from 'vitest';
import { cutToWidth, textWidth } from '../../src/app/picker/cut.js';
import { oneLine } from '../../src/shared/format.js';
import { buildRows, formatTime, isSelectable, rowsFor, rowText, sessionName, UNDO_TEXT, type PickerRow } from '../../src/app/picker/pickerRows.js';
import { checkpoints, timeAt } from './pickerFixtures.js';

const kinds = (rows: readonly PickerRow[]) => rows.map((row) => (row.kind === 'checkpoint' ? row.checkpoint.id : row.kind));

describe('buildRows', () => {
  it('keeps the order, oldest first, with no separator inside one session', () => {
    expect(kinds(buildRows(checkpoints(3), false))).toEqual([1, 2, 3]);
  });

  it('puts the undo row at the top when a rewind can be undone', () => {
    const rows = buildRows(checkpoints(2), true);
    expect(kinds(rows)).toEqual(['undo', 1, 2]);
    expect(rowText(rows[0] as PickerRow)).toBe(UNDO_TEXT);
    expect(isSelectable(rows[0])).toBe(true);
  });

  it('separates sessions where the session changes; null sessions form one group', () => {
    const list = checkpoints(6, (id) => ({ session: id <= 2 ? null : id <= 4 ? 'abc12345-aaaa' : 'def67890-bbbb' }));
    const rows = buildRows(list, false);
    expect(kinds(rows)).toEqual([1, 2, 'separator', 3, 4, 'separator', 5, 6]);
    expect(isSelectable(rows[2])).toBe(false);
    expect(rowText(rows[2] as PickerRow)).toBe('── session abc12345-aaaa · 2026-01-15 14:32:23 ──');
    const nulls = buildRows(checkpoints(3, (id) => ({ session: id === 1 ? 'abc12345' : null })), false);
    expect(kinds(nulls)).toEqual([1, 'separator', 2, 3]);
    expect(rowText(nulls[1] as PickerRow)).toMatch(/^── no session recorded/);
  });

  it('filters case-insensitively by label, trigger and path; keeps separators only between visible rows', () => {
    const list = checkpoints(6, (id) => ({
      session: id <= 3 ? 's1' : 's2',
      label: id === 2 ? 'Implement the AUTH middleware' : id === 5 ? 'auth tests' : `step ${id}`,
      paths: id === 6 ? ['src/db.ts'] : [],
      trigger: id === 4 ? 'manual' : 'PreToolUse:Edit',
    }));
    expect(kinds(buildRows(list, true, 'auth'))).toEqual([2, 'separator', 5]);
    expect(kinds(buildRows(list, true, 'DB.TS'))).toEqual([6]);
    expect(kinds(buildRows(list, true, 'manual'))).toEqual([4]);
    expect(kinds(buildRows(list, true, 'step 1'))).toEqual([1]);
    expect(kinds(buildRows(list, true, 'undo'))).toEqual(['undo']);
    expect(buildRows(list, true, 'nothing like it')).toEqual([]);
  });

  it('builds 10,000 rows quickly and remembers the last result', () => {
    const list = checkpoints(10_000, (id) => ({ session: `s${Math.floor(id / 100)}`, paths: [`src/f${id}.ts`] }));
    const start = performance.now();
    const rows = rowsFor(list, true, '');
    const filtered = rowsFor(list, true, 'f9999.ts');
    expect(performance.now() - start).toBeLessThan(1_000); // a safety net: it takes a few ms
    expect(rows.length).toBe(1 + 10_000 + 100);
    expect(kinds(filtered)).toEqual([9999]);
    expect(rowsFor(list, true, 'f9999.ts')).toBe(filtered);
  });
});

describe('the session separator', () => {
  it("shows the app's session id whole and when the session's first row was taken", () => {
    const list = checkpoints(3, (id) => ({ session: id === 1 ? '2026-11-30-0f9e8d' : '2026-12-01-a1b2c3' }));
    const rows = buildRows(list, false);
    expect(kinds(rows)).toEqual([1, 'separator', 2, 3]);
    expect(rowText(rows[1] as PickerRow)).toBe('── session 2026-12-01-a1b2c3 · 2026-01-15 14:31:23 ──');
  });

  it('cuts a long id (an agent UUID) in the middle, keeping its start and its end', () => {
    expect(sessionName('123e4567-e89b-12d3-a456-426614174000')).toBe('session 123e4567-e89…26614174000');
    expect(textWidth(sessionName('x'.repeat(200)))).toBe('session '.length + 24);
    expect(sessionName('short')).toBe('session short');
    expect(sessionName(null)).toBe('no session recorded');
  });
});

describe('rowText', () => {
  it('formats a checkpoint row in local time with the count and the label', () => {
    const [row] = buildRows([{ id: 1, time: timeAt(0), label: 'implement the auth middleware', trigger: 'enter', session: null, files: 3 }], false);
    expect(rowText(row as PickerRow)).toBe('2026-01-15 14:30:23  3 files     implement the auth middleware');
  });

  it('shows … for an unknown count, falls back to the trigger, marks unrestorable rows, keeps one line', () => {
    const [a, b, c] = buildRows(
      [
        { id: 1, time: timeAt(0), label: '', trigger: 'PreToolUse:Bash', session: null, files: null },
        { id: 2, time: timeAt(1), label: 'old', trigger: 'enter', session: null, files: 2, unrestorable: true },
        { id: 3, time: timeAt(2), label: 'two\nlines\tand \x1b[31mred', trigger: 'enter', session: null, files: 0 },
      ],
      false,
    );
    expect(rowText(a as PickerRow)).toBe('2026-01-15 14:30:23  …           PreToolUse:Bash');
    expect(rowText(b as PickerRow)).toBe('2026-01-15 14:31:23  2 files     no longer restorable  old');
    expect(rowText(c as PickerRow)).toBe('2026-01-15 14:32:23  0 files     two lines and [31mred');
  });

  it('has a compact form for narrow boxes', () => {
    const [row] = buildRows([{ id: 1, time: timeAt(0), label: 'implement the auth middleware', trigger: 'enter', session: null, files: 3, unrestorable: true }], false);
    expect(rowText(row as PickerRow, true)).toBe('01-15 14:30  3    no longer restorable  implement the auth middleware');
  });

  it('formats times in local time and leaves a non-date alone', () => {
    expect(formatTime(new Date(2026, 11, 31, 23, 59, 5).toISOString())).toBe('2026-12-31 23:59:05');
    expect(formatTime('not a date')).toBe('not a date');
  });
});

describe('cutToWidth', () => {
  it('leaves text that fits and cuts the rest with …', () => {
    expect(cutToWidth('abcdef', 6)).toBe('abcdef');
    expect(cutToWidth('abcdefg', 6)).toBe('abcde…');
    expect(cutToWidth('abc', 0)).toBe('');
    expect(cutToWidth('abc', 1)).toBe('…');
  });

  it('counts wide characters as two columns and never splits one', () => {
    const cut = cutToWidth('漢字漢字漢字', 6);
    expect(cut).toBe('漢字…');
    expect(textWidth(cut)).toBeLessThanOrEqual(6);
    expect(textWidth(cutToWidth('ab👍🏽cd', 4))).toBeLessThanOrEqual(4);
  });

  it('oneLine turns breaks into spaces and drops control characters', () => {
    expect(oneLine('a\r\nb\tc\x07d')).toBe('a b cd');
  });
});
