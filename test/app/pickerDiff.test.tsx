// The picker's `d`: the selected step's own diff in a scrollable view, and opening at a
// chosen checkpoint (bisect's first bad one).
import { afterEach, describe, expect, it } from 'vitest';
import { openPicker } from './openPicker.js';
import { KEY, type Rendered } from './renderWait.js';

const opened: Rendered[] = [];
afterEach(() => {
  for (const view of opened.splice(0)) view.unmount();
});

/** 60 lines of diff for checkpoint `id`: a header, then `+line N of #id`. */
function diffOf(id: number): string[] {
  return [`# #${id} step ${id}: its step`, ...Array.from({ length: 59 }, (_, n) => `+line ${n + 1} of #${id}`)];
}

function open(over: Parameters<typeof openPicker>[1] = {}) {
  const loads: number[] = [];
  const loadStepDiff = (id: number) => {
    loads.push(id);
    return Promise.resolve(diffOf(id));
  };
  return openPicker(opened, { loadStepDiff, ...over }).then((picker) => ({ ...picker, loads }));
}

const selected = (frame: string) => /› (.*?)\s*│/.exec(frame)?.[1];

describe("Picker: a step's diff", () => {
  it('d shows the selected step’s diff; it scrolls by line, page, Home and End; Esc goes back', async () => {
    const { view, keys, loads } = await open();
    await view.waitForFrame((f) => f.includes('d diff'));
    keys.press(KEY.up);
    await view.waitForFrame((f) => selected(f)?.endsWith('step 19') === true);
    keys.press('d');
    let frame = await view.waitForFrame((f) => f.includes('+line 1 of #19'));
    expect(frame).toContain('# #19 step 19: its step');
    expect(frame).toContain('step 19: what it changed (60 lines)');
    expect(frame).toContain('Esc or d back');
    expect(frame).not.toContain('+line 30 of #19');
    keys.press(KEY.down);
    frame = await view.waitForFrame((f) => !f.includes('# #19 step 19'));
    expect(frame).toContain('+line 1 of #19');
    keys.press(KEY.pageDown);
    await view.waitForFrame((f) => !f.includes('+line 1 of #19') && f.includes('+line 25 of #19'));
    keys.press(KEY.end);
    await view.waitForFrame((f) => f.includes('+line 59 of #19'));
    // At the end the last line is at the bottom, not past it: ↓ changes nothing, ↑ moves.
    keys.press(KEY.down + KEY.up);
    frame = await view.waitForFrame((f) => !f.includes('+line 59 of #19'));
    expect(frame).toContain('+line 58 of #19');
    keys.press(KEY.home);
    await view.waitForFrame((f) => f.includes('# #19 step 19'));
    keys.press(KEY.esc);
    frame = await view.waitForFrame((f) => selected(f)?.endsWith('step 19') === true);
    expect(frame).not.toContain('+line');
    expect(loads).toEqual([19]);
  });

  it('d types into a filter already begun; with none it opens the diff, and Ctrl+C closes from there', async () => {
    const { view, keys, closed } = await open();
    keys.press('s');
    await view.waitForFrame((f) => f.includes('filter: s'));
    keys.press('d');
    await view.waitForFrame((f) => f.includes('filter: sd'));
    keys.press('\x15'); // Ctrl+U clears the filter
    await view.waitForFrame((f) => f.includes('d diff'));
    keys.press('d');
    await view.waitForFrame((f) => f.includes('+line 1 of #20'));
    keys.press(KEY.ctrlC);
    await view.waitForFrame(() => closed.length === 1);
  });

  it('a diff that fails to load says so', async () => {
    const { view, keys } = await open({ loadStepDiff: () => Promise.reject(new Error('objects are missing')) });
    keys.press('d');
    await view.waitForFrame((f) => f.includes('the diff could not be read: objects are missing'));
  });

  it('opens at selectId instead of the newest, in view', async () => {
    const { view } = await open({ selectId: 3 });
    const frame = await view.waitForFrame((f) => selected(f)?.endsWith('step 3') === true);
    expect(frame).toContain('step 3');
  });
});
