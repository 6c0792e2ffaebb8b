// The app's notice after a restore that something raced: at any width from 80 columns, the
// writes kept and how to get them back are still said.
import { describe, expect, it } from 'vitest';
import { fitNotice } from '../../src/app/noticeFit.js';
import type { RestoreResult } from '../../src/checkpoints/index.js';
import { summary } from '../../src/runtime/restore/pickerFlow.js';

const result: RestoreResult = {
  checkpoint: 7,
  changed: ['a.txt', 'b.txt', 'c.txt'],
  deleted: [],
  leftAlone: [],
  redo: 12,
  skipped: [],
  writtenMeanwhile: { checkpoint: 12, paths: ['a.txt', 'b.txt'] },
};

describe('a restore notice with writes kept from meanwhile', () => {
  it('keeps "written meanwhile" and how to get them back at 80 to 200 columns', () => {
    const notice = summary(result, 'restored the files to just before “Edit a.txt: fix (it) — now”');
    for (let width = 80; width <= 200; width++) {
      const fitted = fitNotice(notice, width);
      expect(fitted.length, `${width}`).toBeLessThanOrEqual(width);
      // The step it went back to is said whole, or (where the room is short) not at all: its colon, brackets and dash are not the notice's.
      expect(fitted, `${width}`).toMatch(/^restored the files( to just before “Edit a.txt: fix \(it\) — now”)?, kept 2 written meanwhile/);
      expect(fitted, `${width}`).toMatch(/ — \/redo brings them back$/);
    }
    expect(fitNotice(notice, 80)).toBe('restored the files, kept 2 written meanwhile — /redo brings them back');
    expect(fitNotice(notice, 100)).toBe('restored the files, kept 2 written meanwhile: 3 file(s) changed — /redo brings them back');
    expect(fitNotice(notice, 200)).toContain(': 3 file(s) changed (3 written, 0 deleted) — /redo brings them back');
    expect(fitNotice(notice, 120)).toBe('restored the files to just before “Edit a.txt: fix (it) — now”, kept 2 written meanwhile — /redo brings them back');
  });

  it('after an undo (no redo point moved), it names the row that holds them, as the picker names it', () => {
    const notice = summary({ ...result, redo: null }, 'undid the rewind to just before “Edit a.txt”', '“undo of the rewind to just before Edit a…”');
    expect(notice).toMatch(/ — Esc Esc → “undo of the rewind to just before Edit a…” brings them back$/);
    // Never cut inside that name, at any width.
    for (let width = 40; width <= 200; width++) expect(fitNotice(notice, width), `${width}`).not.toMatch(/“[^”]*$/);
  });
});

describe('a restore notice when the restore changed nothing', () => {
  const nothing: RestoreResult = { checkpoint: 7, changed: [], deleted: [], leftAlone: [], redo: null, skipped: [], changedNothing: true };

  it('says nothing changed and why, and offers no undo', () => {
    expect(summary(nothing, 'restored the files and the conversation to before prompt “fix it”')).toBe('restored the files and the conversation to before prompt “fix it”: nothing changed (the files already matched it; no redo point made)');
    const leftAlone = { ...nothing, leftAlone: [{ path: 'ro.txt', reason: 'not writable: left as it is' }] };
    expect(summary(leftAlone, 'restored the files to just before “Edit a.txt”')).toBe('restored the files to just before “Edit a.txt”: nothing changed (1 left alone; no redo point made)');
  });
});
