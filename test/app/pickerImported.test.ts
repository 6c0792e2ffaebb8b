// An imported session (`rewind import`) in the picker: its separator says where it came
// from, even when it is the first (or only) session of the list.
import { describe, expect, it } from 'vitest';
import { buildRows, rowText, type PickerRow } from '../../src/app/picker/pickerRows.js';
import { checkpoints } from './pickerFixtures.js';

const kinds = (rows: readonly PickerRow[]) => rows.map((row) => (row.kind === 'checkpoint' ? row.checkpoint.id : row.kind));

describe('an imported session in the picker', () => {
  it('is named by a separator where it starts, after local sessions and at the top alike', () => {
    const mixed = checkpoints(4, (id) => (id <= 2 ? { session: 'mine' } : { session: 'theirs', importedFrom: 'api' }));
    const rows = buildRows(mixed, false);
    expect(kinds(rows)).toEqual([1, 2, 'separator', 3, 4]);
    expect(rowText(rows[2] as PickerRow)).toBe('── imported from api: session theirs · 2026-01-15 14:32:23 ──');
    const only = buildRows(checkpoints(2, () => ({ session: 'theirs', importedFrom: 'api' })), false);
    expect(kinds(only)).toEqual(['separator', 1, 2]);
    expect(rowText(only[0] as PickerRow)).toMatch(/^── imported from api: session theirs · /);
    // The same session id imported from another project is another group.
    const two = buildRows(checkpoints(2, (id) => ({ session: 's', importedFrom: id === 1 ? 'a' : 'b' })), false);
    expect(kinds(two)).toEqual(['separator', 1, 'separator', 2]);
  });
});
