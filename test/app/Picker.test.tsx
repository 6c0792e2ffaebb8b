import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_NOTE, fitHints, Picker } from '../../src/app/picker/Picker.js';
import { noCheckpointsYet } from '../../src/shared/messages.js';
import { textWidth } from '../../src/app/picker/cut.js';
import type { PickerPreview } from '../../src/app/picker/types.js';
import { checkpoints, emptyPreview, noConversation } from './pickerFixtures.js';
import { KEY, type Rendered } from './renderWait.js';
import { openPicker } from './openPicker.js';

const opened: Rendered[] = [];
afterEach(() => {
  for (const view of opened.splice(0)) view.unmount();
});

/** Opens a picker (80 x 24 unless told) and waits until it is drawn and listening. */
const open = (over: Parameters<typeof openPicker>[1] = {}) => openPicker(opened, over);

/** The selected row's text (after `›`, without the border). */
function selectedRow(frame: string): string | undefined {
  return /› (.*?)\s*│/.exec(frame)?.[1];
}

const isSelected = (label: string) => (frame: string) => selectedRow(frame)?.endsWith(`  ${label}`) === true;

describe('Picker: the list', () => {
  it('opens with the newest checkpoint selected at the bottom, in the row format', async () => {
    const { view } = await open();
    const frame = await view.waitForFrame(isSelected('step 20'));
    expect(selectedRow(frame)).toBe('2026-01-15 14:49:23  1 file      step 20');
    expect(frame).toContain('rewind to a checkpoint (20 steps)');
    expect(frame).not.toContain('step 8 '); // 12 rows in view: steps 9-20
    expect(frame).toContain('step 9 ');
  });

  it('moves with ↑/↓ (both cursor modes) and does not wrap at the bottom', async () => {
    const { view, keys } = await open();
    keys.press(KEY.up);
    await view.waitForFrame(isSelected('step 19'));
    keys.press(KEY.upApp);
    await view.waitForFrame(isSelected('step 18'));
    keys.press(KEY.downApp);
    keys.press(KEY.down);
    await view.waitForFrame(isSelected('step 20'));
    keys.press(KEY.down); // at the bottom: stays
    keys.press(KEY.up);
    await view.waitForFrame(isSelected('step 19'));
  });

  it('pages by the list height and goes Home and End', async () => {
    const { view, keys } = await open();
    keys.press(KEY.pageUp); // 12 rows in view
    await view.waitForFrame(isSelected('step 8'));
    keys.press(KEY.pageUp);
    await view.waitForFrame(isSelected('step 1'));
    keys.press(KEY.pageDown);
    await view.waitForFrame(isSelected('step 13'));
    keys.press(KEY.end);
    await view.waitForFrame(isSelected('step 20'));
    keys.press(KEY.home);
    const frame = await view.waitForFrame(isSelected('step 1'));
    expect(frame).not.toContain('step 20');
  });

  it('opens and moves through 10,000 checkpoints, drawing only the rows in view', async () => {
    const { view, keys } = await open({ checkpoints: checkpoints(10_000, (id) => ({ paths: [`src/file${id}.ts`] })) });
    const first = await view.waitForFrame(isSelected('step 10000'));
    expect(first).toContain('rewind to a checkpoint (10000 steps)');
    expect(view.lines().length).toBeLessThanOrEqual(24);
    keys.press(KEY.home);
    await view.waitForFrame(isSelected('step 1'));
    keys.press(KEY.pageDown);
    await view.waitForFrame(isSelected('step 13'));
    keys.press(KEY.end);
    await view.waitForFrame(isSelected('step 10000'));
    keys.press('file5000.ts');
    await view.waitForFrame(isSelected('step 5000'));
  });

  it('separates sessions', async () => {
    const { view } = await open({ checkpoints: checkpoints(6, (id) => ({ session: id <= 3 ? 'abc12345-0000' : 'def67890-1111' })) });
    const frame = await view.waitForFrame((f) => f.includes('── session def67890'));
    expect(frame.indexOf('step 3')).toBeLessThan(frame.indexOf('── session def67890'));
    expect(frame.indexOf('── session def67890')).toBeLessThan(frame.indexOf('step 4'));
  });

  it('follows new props: counts filled in later, a new checkpoint, the selection kept', async () => {
    const list = checkpoints(5, () => ({ files: null }));
    const { view, keys, props } = await open({ checkpoints: list });
    keys.press(KEY.up);
    await view.waitForFrame(isSelected('step 4'));
    const counted = [...list.map((c) => ({ ...c, files: c.id })), ...checkpoints(6).slice(5)];
    view.rerender(<Picker {...props} checkpoints={counted} />);
    const frame = await view.waitForFrame((f) => f.includes('step 6'));
    expect(selectedRow(frame)).toBe('2026-01-15 14:33:23  4 files     step 4');
    expect(frame).toContain('rewind to a checkpoint (6 steps)');
  });

  it('marks rows whose files can no longer be restored, and shows … for a count not known yet', async () => {
    const { view } = await open({ checkpoints: checkpoints(3, (id) => ({ unrestorable: id === 1, files: id === 3 ? null : 2 })) });
    // The newest's count not known yet: the last step known to have changed files is selected.
    const frame = await view.waitForFrame(isSelected('step 2'));
    expect(frame).toContain('2 files     no longer restorable  step 1');
    expect(frame).toContain('2026-01-15 14:32:23  …           step 3');
  });
});

describe('Picker: filtering', () => {
  const labelled = checkpoints(20, (id) => ({
    label: id % 5 === 0 ? `implement the auth middleware ${id}` : `step ${id}`,
    paths: id === 7 ? ['src/db.ts'] : ['README.md'],
  }));

  it('filters by label as you type; Backspace and Esc take it back; Esc then closes', async () => {
    const { view, keys, closed } = await open({ checkpoints: labelled });
    keys.press('AUTH');
    const frame = await view.waitForFrame((f) => f.includes('filter: AUTH'));
    expect(frame).toContain('4 of 20 rows');
    expect(frame).not.toContain('step 19');
    expect(selectedRow(frame)).toMatch(/auth middleware 20$/);
    keys.press(KEY.backspace);
    await view.waitForFrame((f) => f.includes('filter: AUT▏'));
    keys.press(KEY.esc);
    await view.waitForFrame((f) => f.includes('type to filter') && f.includes('step 19'));
    expect(closed).toEqual([]);
    keys.press(KEY.esc);
    await view.waitForFrame(() => closed.length === 1, 3_000, 'onClose');
  });

  it('filters by file name, and says when nothing matches', async () => {
    const { view, keys } = await open({ checkpoints: labelled });
    keys.press('db.ts');
    const frame = await view.waitForFrame(isSelected('step 7'));
    expect(frame).toContain('1 of 20 rows');
    keys.press('x');
    const none = await view.waitForFrame((f) => f.includes('no checkpoint matches "db.tsx"'));
    // With no row, no key that acts on one is offered.
    expect(none).toContain('Backspace edit the filter · Esc clear it');
    expect(none).not.toContain('Enter choose');
  });
});

describe('Picker: choosing', () => {
  it('shows the undo row at the top and chooses it', async () => {
    const { view, keys, chosen } = await open({ canUndo: true });
    keys.press(KEY.home);
    const frame = await view.waitForFrame((f) => selectedRow(f) === '↶ undo last rewind');
    expect(frame).toContain('undo the last rewind');
    keys.press(KEY.enter);
    await view.waitForFrame(() => chosen.length === 1, 3_000, 'onChoose');
    expect(chosen).toEqual([{ kind: 'undo' }]);
  });

  it('opened on the undo row after a rewind, a list longer than the view keeps it on the first line and the newest steps under it', async () => {
    const { view } = await open({ checkpoints: checkpoints(40), canUndo: true, undoPoint: 40 });
    const frame = await view.waitForFrame((f) => selectedRow(f) === '↶ undo last rewind');
    const rows = frame.split('\n').filter((line) => /↶ undo last rewind|step \d+ /.test(line));
    expect(rows[0]).toContain('↶ undo last rewind');
    expect(rows.at(-1)).toMatch(/step 40\s*│$/);
    expect(frame).not.toMatch(/step 1\s*│/);
  });

  it('the undo row says which rewind it undoes and the files it changes, once read, and that the conversation stays', async () => {
    let asked = 0;
    const { view, keys } = await open({
      canUndo: true,
      loadStepDiff: () => Promise.resolve([]),
      loadRevertPlan: () => Promise.resolve({ lines: [], conflicts: 0 }),
      loadUndo: () => {
        asked++;
        return Promise.resolve(['undo the rewind to #7 (2026-12-06 09:11:56): your files as they were just before it (#9); the conversation stays as it is', 'it changes 1 file(s):', '  A docs/usage.md']);
      },
    });
    expect(asked).toBe(0);
    keys.press(KEY.home);
    const frame = await view.waitForFrame((f) => f.includes('A docs/usage.md'));
    expect(frame).toContain('undo the rewind to #7 (2026-12-06 09:11:56)');
    expect(frame).toContain('it changes 1 file(s):');
    expect(asked).toBe(1);
    // Its keys are those it takes: no `d diff` or `u revert` (there they type a filter); a step's row offers them.
    expect(frame).toContain('↑↓ move');
    expect(frame).not.toMatch(/d diff|u revert/);
    keys.press(KEY.down);
    await view.waitForFrame((f) => selectedRow(f) !== '↶ undo last rewind' && f.includes('d diff · u revert'));
  });

  for (const [letter, mode] of [
    ['b', 'both'],
    ['f', 'files'],
    ['c', 'conversation'],
  ] as const) {
    it(`Enter shows the modes; ${letter} picks ${mode}`, async () => {
      const { view, keys, chosen } = await open();
      keys.press(KEY.up);
      await view.waitForFrame(isSelected('step 19'));
      keys.press(KEY.enter);
      const frame = await view.waitForFrame((f) => f.includes('restore conversation and files'));
      expect(frame).toContain('b  restore conversation and files');
      expect(frame).toContain('f  restore files only');
      expect(frame).toContain('c  restore conversation only');
      expect(frame).toContain('rewind to just before step 19 (it changed 1 file), 2026-01-15 14:48:23');
      await view.waitForFrame((f) => f.includes('undoing this and every later step now changes 1 file(s)')); // the preview stays under the menu
      keys.press(letter);
      await view.waitForFrame(() => chosen.length === 1, 3_000, 'onChoose');
      expect(chosen).toEqual([{ kind: 'restore', id: 19, mode }]);
    });
  }

  it('shows a disabled mode with its reason and does not choose it', async () => {
    const { view, keys, chosen } = await open({ modes: noConversation });
    keys.press(KEY.enter);
    const frame = await view.waitForFrame((f) => f.includes('restore files only'));
    expect(frame).toContain('c  restore conversation only — no conversation stored');
    expect(frame).toContain('b  restore conversation and files — no conversation stored');
    expect(selectedRow(frame)).toBe('f  restore files only'); // the cursor starts on the first enabled mode
    keys.press('c');
    await view.waitForFrame((f) => f.includes('restore conversation only is not available: no conversation stored'));
    expect(chosen).toEqual([]);
    keys.press(KEY.enter);
    await view.waitForFrame(() => chosen.length === 1, 3_000, 'onChoose');
    expect(chosen).toEqual([{ kind: 'restore', id: 20, mode: 'files' }]);
  });

  it('says where the conversation is cut only under a mode that can cut it (none can: the cursor on a disabled one)', async () => {
    const { view, keys } = await open({ modes: () => ({ ...noConversation(), files: { enabled: false, reason: 'nothing to change: the files already match it' } }) });
    keys.press(KEY.enter);
    const frame = await view.waitForFrame((f) => selectedRow(f)?.startsWith('b  restore conversation and files') === true);
    expect(frame).toContain('f  restore files only — nothing to change');
    expect(frame).not.toContain('the conversation cut');
  });

  it('moves through the modes with ↑/↓ and Enter', async () => {
    const { view, keys, chosen } = await open();
    keys.press(KEY.enter);
    await view.waitForFrame((f) => selectedRow(f) === 'b  restore conversation and files');
    keys.press(KEY.down);
    keys.press(KEY.down);
    keys.press(KEY.down); // no wrap
    await view.waitForFrame((f) => selectedRow(f) === 'c  restore conversation only');
    keys.press(KEY.enter);
    await view.waitForFrame(() => chosen.length === 1, 3_000, 'onChoose');
    expect(chosen).toEqual([{ kind: 'restore', id: 20, mode: 'conversation' }]);
  });

  it('Esc goes back from the modes to the list; Ctrl+C closes', async () => {
    const { view, keys, chosen, closed } = await open();
    keys.press(KEY.enter);
    await view.waitForFrame((f) => f.includes('restore files only'));
    keys.press(KEY.esc);
    await view.waitForFrame((f) => isSelected('step 20')(f) && !f.includes('restore files only'));
    expect(closed).toEqual([]);
    keys.press(KEY.ctrlC);
    await view.waitForFrame(() => closed.length === 1, 3_000, 'onClose');
    expect(chosen).toEqual([]);
  });

  it('Ctrl+C closes from the modes too, once', async () => {
    const { view, keys, closed } = await open();
    keys.press(KEY.enter);
    await view.waitForFrame((f) => f.includes('restore files only'));
    keys.press(KEY.ctrlC + KEY.ctrlC);
    keys.press(KEY.esc);
    await view.waitForFrame(() => closed.length === 1, 3_000, 'onClose');
    expect(closed).toEqual([true]);
  });
});

describe('Picker: notes and edge cases', () => {
  it('shows the banner and the busy note', async () => {
    const { view, keys } = await open({ banner: 'checkpointing is off: git was not found', agentBusy: true });
    const frame = await view.waitForFrame((f) => f.includes(BUSY_NOTE));
    expect(frame).toContain('⚠ checkpointing is off: git was not found');
    keys.press(KEY.enter);
    const modes = await view.waitForFrame((f) => f.includes('restore files only'));
    expect(modes).toContain(BUSY_NOTE);
  });

  it('says there are no checkpoints yet if opened with none', async () => {
    const { view } = await open({ checkpoints: [] });
    await view.waitForFrame((f) => f.includes(noCheckpointsYet));
  });
});

describe('Picker: preview', () => {
  const preview: PickerPreview = {
    files: [
      { path: 'src/db.ts', status: 'M', added: 12, removed: 3 },
      { path: 'notes.md', status: 'M', added: 1, removed: 4 },
      { path: 'old.ts', status: 'D', added: 0, removed: 9 },
    ],
    skipped: [{ path: 'model.gguf', bytes: 3 * 1024 ** 3, reason: 'over 20 MB' }],
    unsaved: ['notes.md'],
  };

  it('shows … while loading, then the files with +/-, the unsaved ones flagged and the skipped ones', async () => {
    const calls: number[] = [];
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { view } = await open({
      loadPreview: async (id) => {
        calls.push(id);
        await gate;
        return preview;
      },
    });
    await view.waitForFrame(() => calls.length === 1, 3_000, 'the preview to be asked for');
    expect(view.lines().some((line) => /^│ …\s*│$/.test(line))).toBe(true);
    release();
    const frame = await view.waitForFrame((f) => f.includes('+12 -3'));
    expect(frame).toContain('undoing this step now changes 3 file(s)');
    expect(frame).toContain('  M src/db.ts  +12 -3');
    expect(frame).toContain('! M notes.md  +1 -4');
    expect(frame).toContain('  D old.ts  +0 -9');
    expect(frame).toContain('! edited after the newest checkpoint — kept in the redo point');
    expect(frame).toContain('left alone (skipped): model.gguf  3.0 GB, over 20 MB');
    expect(calls).toEqual([20]);
  });

  it('loads a preview per row once, and only for the row the selection rests on', async () => {
    const calls: number[] = [];
    const { view, keys } = await open({
      loadPreview: (id) => {
        calls.push(id);
        return Promise.resolve({ files: [{ path: `f${id}.ts`, status: 'M', added: id, removed: 0 }], skipped: [], unsaved: [] });
      },
    });
    await view.waitForFrame((f) => f.includes('f20.ts  +20 -0'));
    keys.press(KEY.up + KEY.up + KEY.up); // one read: the selection passes 19 and 18 at once
    await view.waitForFrame((f) => f.includes('f17.ts  +17 -0'));
    keys.press(KEY.end);
    await view.waitForFrame((f) => f.includes('f20.ts  +20 -0'));
    expect(calls).toEqual([20, 17]);
  });

  it('shows the error of a preview that fails', async () => {
    const { view, keys } = await open({
      loadPreview: (id) => (id === 20 ? Promise.reject(new Error('objects are missing')) : Promise.resolve({ ...emptyPreview, error: 'checkpoint #19 is no longer restorable' })),
    });
    await view.waitForFrame((f) => f.includes('this step cannot be previewed: objects are missing'));
    keys.press(KEY.up);
    await view.waitForFrame((f) => f.includes('this step cannot be previewed: checkpoint #19 is no longer restorable'));
  });
});

describe('Picker: room and counts', () => {
  const thirteen: PickerPreview = { files: Array.from({ length: 13 }, (_, i) => ({ path: `src/file${i}.ts`, status: 'M' as const, added: i, removed: 0 })), skipped: [], unsaved: [] };

  it('a short list takes only its rows: the preview gets the rest, all 13 files, with no empty rows above it', async () => {
    const { view, keys } = await open({ checkpoints: checkpoints(3), loadPreview: () => Promise.resolve(thirteen) });
    keys.press(KEY.up);
    const frame = await view.waitForFrame((f) => f.includes('src/file12.ts'), 3_000, 'every file of the preview');
    expect(frame).not.toMatch(/more file\(s\)/);
    const lines = frame.split('\n');
    const last = lines.findIndex((line) => line.includes('step 3'));
    expect(lines[last + 1]).toMatch(/^│ ─+ │$/);
    expect(lines.length).toBe(24);
  });

  it("the row counts that step's files, the preview header what a restore changes now", async () => {
    const { view, keys } = await open({ checkpoints: checkpoints(3), loadPreview: () => Promise.resolve(thirteen) });
    keys.press(KEY.up);
    const frame = await view.waitForFrame((f) => f.includes('src/file12.ts'));
    expect(selectedRow(frame)).toBe('2026-01-15 14:31:23  1 file      step 2');
    expect(frame).toContain('undoing this and every later step now changes 13 file(s)');
  });

  it('a long list still leaves the preview a third of the room', async () => {
    const { view } = await open({ checkpoints: checkpoints(200), loadPreview: () => Promise.resolve(thirteen) });
    const frame = await view.waitForFrame((f) => f.includes('more file(s)'));
    expect(frame).toContain('undoing this step now changes 13 file(s)');
    expect(frame.split('\n').filter((line) => /src\/file\d+\.ts/.test(line))).toHaveLength(4);
  });
});

describe('Picker: long labels', () => {
  const long = `implement the auth middleware ${'and then much more '.repeat(12)}漢字の終わり END`;

  for (const width of [40, 80, 200]) {
    it(`cuts long labels to ${width} columns`, async () => {
      const { view } = await open({
        width,
        height: 20,
        checkpoints: checkpoints(3, (id) => ({ label: id === 3 ? long : `step ${id}`, session: id === 1 ? 'abc12345' : 'def67890' })),
        banner: `a long warning ${'that goes on '.repeat(20)}`,
        agentBusy: true,
      });
      const frame = await view.waitForFrame((f) => f.includes('implement'));
      const lines = frame.split('\n');
      for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(width);
      expect(lines[0] && textWidth(lines[0])).toBe(width); // the box takes the whole width
      const row = selectedRow(frame) ?? '';
      expect(row.endsWith('…')).toBe(true);
      expect(row).not.toContain('END');
      const start = width < 64 ? '01-15 14:32  1    implement' : '2026-01-15 14:32:23  1 file      implement the auth';
      expect(row.startsWith(start), row).toBe(true); // narrow boxes use the compact row
      expect(textWidth(`│ › ${row}`)).toBeLessThanOrEqual(width - 1);
      expect(textWidth(row)).toBeGreaterThanOrEqual(width - 8); // cut at the edge, not earlier
    });
  }
});

describe('fitHints', () => {
  it('drops the keys everyone knows first, so the way back or out is what stays', () => {
    const files = "↑↓ move · Space tick · a all/none · s this session's (3) · Enter restore · Esc back";
    expect(fitHints(files, 120)).toBe(files);
    expect(fitHints(files, 76)).toBe("Space tick · a all/none · s this session's (3) · Enter restore · Esc back");
    const main = '↑↓ move · ←→ fold · Enter choose · d diff · u revert · Tab files · Esc close';
    expect(fitHints(main, 70)).toBe('←→ fold · Enter choose · d diff · u revert · Tab files · Esc close');
  });
});
