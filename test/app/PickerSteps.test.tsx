// The picker drawn on the steps of a session (the demo's two tasks) at 80, 120 and 200
// columns: the rows, where it opens, and the mode screen previewing each mode.
import { afterEach, describe, expect, it } from 'vitest';
import { textWidth } from '../../src/app/picker/cut.js';
import { rowText, shortRewindTitle } from '../../src/app/picker/pickerRows.js';
import type { PickerPreview } from '../../src/app/picker/types.js';
import { demoSteps } from './pickerFixtures.js';
import { KEY, type Rendered } from './renderWait.js';
import { openPicker } from './openPicker.js';

const opened: Rendered[] = [];
afterEach(() => {
  for (const view of opened.splice(0)) view.unmount();
});

const selectedRow = (frame: string) => /› (.*?)\s*│/.exec(frame)?.[1];

/** What restoring #8 (Edit package.json) changes: package.json; #7 and the turn more. */
const previewOf = (id: number): PickerPreview => ({
  files: [{ path: 'package.json', status: 'M', added: 1, removed: 0 }, ...(id < 8 ? (['tests/config.test.js', 'tests/server.test.js'] as const).map((path) => ({ path, status: 'A' as const, added: 3, removed: 0 })) : [])],
  skipped: [],
  unsaved: [],
});

describe.each([80, 120, 200])('the picker on steps at %i columns', (width) => {
  it('opens on Edit package.json under its open turn, every line within the width; the mode screen previews files, conversation and both', async () => {
    const { view, keys, chosen } = await openPicker(opened, { checkpoints: demoSteps(), width, height: 30, loadPreview: (id) => Promise.resolve(previewOf(id)) });
    const frame = await view.waitForFrame((f) => f.includes('undoing this step now changes 1 file(s)'));
    for (const line of frame.split('\n')) expect(textWidth(line), line).toBeLessThanOrEqual(width);
    expect(selectedRow(frame)).toMatch(/^2026-01-15 14:32:23 {2}1 file {10}Edit package\.json$/);
    expect(frame).toMatch(/3 files {5}▾ prompt: 2 {2}\(2 steps\)/);
    // The title counts the turns and the steps as the turns' rows count theirs (2 + 2; the session's start is no step).
    expect(frame).toContain('rewind to a checkpoint (2 turns, 4 steps)');
    expect(frame).toMatch(/2 files {5}▸ prompt: 1 {2}\(2 steps\)/);
    expect(frame).toMatch(/2 files {9}Bash rm -rf tests/);
    expect(frame).not.toContain('Edit server.js'); // folded under its turn
    expect(frame).not.toContain('step:');
    expect(frame).toContain('←→ fold');

    keys.press(KEY.up);
    await view.waitForFrame((f) => selectedRow(f)?.endsWith('Bash rm -rf tests') === true && f.includes('undoing this and every later step now changes 3 file(s)'));
    keys.press(KEY.enter);
    const files = await view.waitForFrame((f) => f.includes('rewind to just before Bash rm -rf tests (it changed 2 files)'));
    // Wrapped, never cut: the whole line is there at 80 columns too.
    expect(files.replace(/\s*│\n│\s*/g, ' ')).toContain('the conversation cut to before prompt "2", whose turn Bash rm -rf tests is in: 1 turn dropped (that one)');
    expect(files).toContain('A tests/config.test.js');
    keys.press(KEY.down); // files only: the files, no conversation line
    const onlyFiles = await view.waitForFrame((f) => selectedRow(f) === 'f  restore files only');
    expect(onlyFiles).not.toContain('the conversation cut');
    expect(onlyFiles).toContain('undoing this and every later step now changes 3 file(s)');
    keys.press(KEY.down); // conversation only: the files untouched
    const talk = await view.waitForFrame((f) => selectedRow(f) === 'c  restore conversation only');
    expect(talk).toContain('files untouched: they stay as they are now');
    expect(talk).not.toContain('undoing this and every later step now changes');
    for (const line of talk.split('\n')) expect(textWidth(line), line).toBeLessThanOrEqual(width);
    keys.press(KEY.esc);
    keys.press(KEY.up);
    await view.waitForFrame((f) => selectedRow(f)?.includes('▾ prompt: 2') === true);
    keys.press(KEY.enter);
    const turn = await view.waitForFrame((f) => f.includes('rewind to just before prompt "2" (its turn changed 3 files)'));
    expect(turn).toContain('the conversation cut to before prompt "2": 1 turn dropped (that one)');
    keys.press('f');
    await view.waitForFrame(() => chosen.length === 1, 3_000, 'onChoose');
    expect(chosen).toEqual([{ kind: 'restore', id: 6, mode: 'files' }]);
  });
});

describe('filtering the steps', () => {
  it('finds a turn by what its row reads (`prompt: 2`), not only by its label', async () => {
    const { view, keys } = await openPicker(opened, { checkpoints: demoSteps(), width: 120, height: 30, loadPreview: (id) => Promise.resolve(previewOf(id)) });
    await view.waitForFrame((f) => f.includes('undoing this step now changes 1 file(s)'));
    keys.press('prompt: 2');
    const frame = await view.waitForFrame((f) => selectedRow(f)?.includes('prompt: 2') === true);
    expect(frame).not.toContain('no checkpoint matches');
  });
});

describe("a rewind's row too narrow for its title", () => {
  const rewinds = () => {
    const rows = demoSteps();
    const at = (id: number, minute: number, label: string) => ({ ...(rows[0] as (typeof rows)[0]), id, time: `2026-01-15T14:${minute}:00.000Z`, label, trigger: 'restore', kind: 'mark' as const, files: 3, paths: ['package.json'] });
    return [...rows, at(9, 40, 'rewind to just before Bash rm -rf tests'), at(10, 41, 'undo of the rewind to just before Bash rm -rf tests'), at(11, 42, 'undo of the undo of the rewind to just before Bash rm -rf tests')];
  };

  it('says it in fewer words at 80 columns, keeping the name of the step it went back to; wider, whole', async () => {
    const narrow = await openPicker(opened, { checkpoints: rewinds(), width: 80, height: 30, loadPreview: (id) => Promise.resolve(previewOf(id)) });
    const frame = await narrow.view.waitForFrame((f) => f.includes('↶ ↶ rewind to before Bash rm -rf tests'));
    expect(frame).toMatch(/3 files {5}↶ rewind to before Bash rm -rf tests +│/);
    // One that fits is left whole.
    expect(frame).toMatch(/3 files {5}rewind to just before Bash rm -rf tests +│/);
    for (const line of frame.split('\n')) expect(textWidth(line), line).toBeLessThanOrEqual(80);
    const wide = await openPicker(opened, { checkpoints: rewinds(), width: 120, height: 30, loadPreview: (id) => Promise.resolve(previewOf(id)) });
    await wide.view.waitForFrame((f) => f.includes('undo of the undo of the rewind to just before Bash rm -rf tests'));
  });

  it("never shortens a label of your own (a /checkpoint's), whatever its words", () => {
    const mine = { ...(demoSteps()[0] as ReturnType<typeof demoSteps>[0]), id: 12, label: 'undo of the rewind to just before lunch', trigger: 'manual', kind: 'mark' as const };
    expect(rowText({ kind: 'checkpoint', checkpoint: mine }, false, true)).toMatch(/ {2}undo of the rewind to just before lunch$/);
  });

  it('changes only the words before the name: a name with the same words is its own', () => {
    expect(shortRewindTitle('finishing the rewind to just before prompt: undo of the rewind to just before lunch')).toBe('finishing rewind to before prompt: undo of the rewind to just before lunch');
    expect(shortRewindTitle('written during the undo of the rewind to just before Edit a.txt: a.txt')).toBe('written during undo of rewind to before Edit a.txt: a.txt');
    expect(shortRewindTitle('undo of the undo of the rewind to just before Edit a.txt')).toBe('↶ ↶ rewind to before Edit a.txt');
    expect(shortRewindTitle('revert of Edit a.txt')).toBe('revert of Edit a.txt');
    expect(shortRewindTitle('undo of the rewind to just before the rewind')).toBe('↶ rewind to before the rewind');
  });
});
