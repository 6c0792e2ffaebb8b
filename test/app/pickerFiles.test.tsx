// The picker's Tab (issue 28 item 3): the files a restore of the row would change, each
// ticked; Space and `a` tick, the count follows, Enter restores the ticked ones alone (files
// only), all ticked is a whole restore, none ticked chooses nothing; Esc goes back.
import { afterEach, describe, expect, it } from 'vitest';
import type { PickerPreview } from '../../src/app/picker/types.js';
import { openPicker } from './openPicker.js';
import { noConversation } from './pickerFixtures.js';
import { KEY, type Rendered } from './renderWait.js';

const opened: Rendered[] = [];
afterEach(() => {
  for (const view of opened.splice(0)) view.unmount();
});

const three: PickerPreview = {
  files: [
    { path: 'a.txt', status: 'M', added: 1, removed: 1 },
    { path: 'src/b.ts', status: 'A', added: 3, removed: 0 },
    { path: 'c.txt', status: 'D', added: 0, removed: 2 },
  ],
  skipped: [],
  unsaved: ['a.txt'],
};

const open = () => openPicker(opened, { loadPreview: () => Promise.resolve(three) });

describe('Picker: picking files', () => {
  it('Tab lists the files ticked; Space unticks, the count follows; Enter restores the ticked ones alone', async () => {
    const { view, keys, chosen } = await open();
    await view.waitForFrame((f) => f.includes('Tab files'));
    keys.press('\t');
    let frame = await view.waitForFrame((f) => f.includes('3 of 3 ticked: restore only those to just before step 20 (files only)'));
    expect(frame).toContain('› [x] ! M a.txt  +1 -1');
    expect(frame).toContain('  [x]   A src/b.ts  +3 -0');
    expect(frame).toContain('Space tick · a all/none · Enter restore · Esc back');
    keys.press(KEY.down);
    keys.press(' ');
    frame = await view.waitForFrame((f) => f.includes('2 of 3 ticked: '));
    expect(frame).toContain('› [ ]   A src/b.ts');
    keys.press(KEY.enter);
    await view.waitForFrame(() => chosen.length === 1);
    expect(chosen).toEqual([{ kind: 'restore', id: 20, mode: 'files', only: ['a.txt', 'c.txt'] }]);
  });

  it('a unticks all (Enter then chooses nothing and says why), a again ticks all: a whole files restore', async () => {
    const { view, keys, chosen } = await open();
    await view.waitForFrame((f) => f.includes('Tab files'));
    keys.press('\t');
    await view.waitForFrame((f) => f.includes('3 of 3 ticked: '));
    keys.press('a');
    await view.waitForFrame((f) => f.includes('0 of 3 ticked: '));
    keys.press(KEY.enter);
    await view.waitForFrame((f) => f.includes('no file is ticked'));
    expect(chosen).toEqual([]);
    keys.press('a');
    await view.waitForFrame((f) => f.includes('3 of 3 ticked: '));
    keys.press(KEY.enter);
    await view.waitForFrame(() => chosen.length === 1);
    expect(chosen).toEqual([{ kind: 'restore', id: 20, mode: 'files' }]);
  });

  it("s ticks only this session's files (what its own steps changed since, no one else's)", async () => {
    const { view, keys, chosen } = await openPicker(opened, { loadPreview: () => Promise.resolve(three), loadSessionFiles: () => Promise.resolve(['src/b.ts', 'elsewhere.txt']) });
    await view.waitForFrame((f) => f.includes('Tab files'));
    keys.press('\t');
    await view.waitForFrame((f) => f.includes("s this session's (1)"));
    keys.press('s');
    const frame = await view.waitForFrame((f) => f.includes('1 of 3 ticked: '));
    expect(frame).toContain('[x]   A src/b.ts');
    expect(frame).toContain('[ ] ! M a.txt');
    keys.press(KEY.enter);
    await view.waitForFrame(() => chosen.length === 1);
    expect(chosen).toEqual([{ kind: 'restore', id: 20, mode: 'files', only: ['src/b.ts'] }]);
  });

  it('Esc goes back to the list; a row whose files cannot be restored, or that changes none, has no Tab', async () => {
    const { view, keys } = await open();
    await view.waitForFrame((f) => f.includes('Tab files'));
    keys.press('\t');
    await view.waitForFrame((f) => f.includes('3 of 3 ticked: '));
    keys.press(KEY.esc);
    await view.waitForFrame((f) => f.includes('Tab files') && !f.includes('[x]'));
    const none = await openPicker(opened, { loadPreview: () => Promise.resolve({ files: [], skipped: [], unsaved: [] }) });
    await none.view.waitForFrame((f) => f.includes('nothing to change'));
    expect(none.view.frame()).not.toContain('Tab files');
    none.keys.press('\t');
    const unrestorable = await openPicker(opened, { loadPreview: () => Promise.resolve(three), modes: () => ({ ...noConversation(), files: { enabled: false, reason: 'gone' } }) });
    await unrestorable.view.waitForFrame((f) => f.includes('Tab files'));
    unrestorable.keys.press('\t');
    unrestorable.keys.press(KEY.up);
    await unrestorable.view.waitForFrame((f) => !f.includes('[x]') && f.includes('step 19'));
  });
});
