import { describe, expect, it } from 'vitest';
import { commandBarRow, statusLineRow } from '../../src/app/bottomLine.js';
import stringWidth from 'string-width';
import { cellWidth } from '../../src/app/cellWidth.js';

// eslint-disable-next-line no-control-regex -- SGR sequences start with ESC
const plain = (row: string) => row.replace(/\x1b\[[0-9;]*m/g, '');
const status = { checkpoints: '#14 · 2m ago · 2.1 MB', checkpointsOff: false, agent: 'agent idle', keys: 'Esc Esc rewind · Ctrl+] commands' };

describe('cellWidth', () => {
  it('counts wide characters twice and combining marks not at all, as string-width does', () => {
    expect(cellWidth('abc')).toBe(3);
    expect(cellWidth('日本')).toBe(4);
    expect(cellWidth('e\u0301')).toBe(1);
    expect(cellWidth('◈ · …')).toBe(5);
    for (const text of ['abc', '日本', 'e\u0301', '◈ · …', 'files changed: naïve.txt, 表.md']) expect(cellWidth(text)).toBe(stringWidth(text));
  });
});

describe('the status line', () => {
  it('has the state on the left and the keys on the right, exactly as wide as the terminal', () => {
    const row = plain(statusLineRow(status, 100));
    expect(row.startsWith(' ◈ rewind #14 · 2m ago · 2.1 MB · agent idle')).toBe(true);
    expect(row.endsWith(' Esc Esc rewind · Ctrl+] commands ')).toBe(true);
    expect(stringWidth(row)).toBe(100);
  });

  it('starts with a marker while the pane is scrolled back, a notice or not', () => {
    const row = statusLineRow({ ...status, scrolledBack: 42 }, 100);
    expect(row).toContain('\x1b[1;7;33m ↑ 42 lines back \x1b[0m');
    expect(plain(row).startsWith(' ◈ rewind  ↑ 42 lines back  #14')).toBe(true);
    expect(stringWidth(plain(row))).toBe(100);
    expect(plain(statusLineRow({ ...status, scrolledBack: 1, notice: { text: 'restored #3', tone: 'info' } }, 100))).toBe(' ◈ rewind  ↑ 1 line back  restored #3');
    // Without colours it stays inverse.
    expect(statusLineRow({ ...status, scrolledBack: 3 }, 100, true)).toContain('\x1b[1;7m ↑ 3 lines back \x1b[0m');
  });

  it('cuts the state, not the keys, when the terminal is narrow', () => {
    const row = plain(statusLineRow(status, 50));
    expect(stringWidth(row)).toBe(50);
    expect(row).toContain('…');
    expect(row.endsWith(' Esc Esc rewind · Ctrl+] commands ')).toBe(true);
  });

  it('shows a notice in its colour instead, shortened to the width after a whole part of its detail', () => {
    const row = statusLineRow({ ...status, notice: { text: 'checkpoint failed: disk full, free some space and retry', tone: 'error' } }, 40);
    expect(row).toContain('\x1b[31m');
    expect(plain(row)).toBe(' ◈ checkpoint failed: disk full…');
  });

  it('says in yellow that checkpoints are off', () => {
    expect(statusLineRow({ ...status, checkpoints: 'checkpoints off: home folder', checkpointsOff: true }, 100)).toContain('\x1b[33mcheckpoints off: home folder');
  });
});

describe('the command bar', () => {
  it('shows what was typed with a cursor after it, then the hint; the end of a long text stays in view', () => {
    expect(plain(commandBarRow({ text: 'checkpoint', hint: 'take a checkpoint now · Enter runs' }, 80))).toBe(' ◈ /checkpoint   take a checkpoint now · Enter runs');
    const long = plain(commandBarRow({ text: `checkpoint ${'x'.repeat(80)}end`, hint: 'take a checkpoint now · Enter runs' }, 60));
    expect(stringWidth(long)).toBe(60);
    expect(long.startsWith('…')).toBe(true);
    expect(long).toContain('end   take a checkpoint');
  });

  it('does not show a typed slash twice', () => {
    expect(plain(commandBarRow({ text: '/redo', hint: 'h' }, 80))).toBe(' ◈ /redo   h');
  });

  it('cuts a long hint at its end, keeping the typed text whole', () => {
    const row = plain(commandBarRow({ text: 'c', hint: '/checkpoint [label]  /checkpoints  /config · Tab completes' }, 40));
    expect(stringWidth(row)).toBe(40);
    expect(row.startsWith(' ◈ /c   /checkpoint [label]')).toBe(true);
    expect(row.endsWith('…')).toBe(true);
  });

  it('shows an error instead of the hint', () => {
    expect(plain(commandBarRow({ text: 'nope', error: 'unknown command /nope', hint: 'no command starts with /nope' }, 80))).toBe(' ◈ /nope   unknown command /nope');
  });

  it('shortens a long error as a notice is, never mid-word: what went wrong and what to do stay', () => {
    const error = 'nothing to undo: no restore was made in this project (the redo stack is empty) — restore a checkpoint first with Esc Esc';
    for (const width of [80, 100]) {
      const row = plain(commandBarRow({ text: 'redo', error }, width));
      expect(stringWidth(row)).toBeLessThanOrEqual(width);
      expect(row).toContain('nothing to undo');
      expect(row).toContain('— restore a checkpoint first with Esc Esc');
      // Cut only after a whole word of the error's.
      const words = new Set(error.split(/[\s:]+/));
      for (const word of row.replace('…', ' ').trim().split(/[\s:]+/).slice(2)) expect(words.has(word), word).toBe(true);
    }
  });
});

describe('the status line of a trigger that is off', () => {
  it('says so in yellow between the checkpoints and the agent, for as long as it is', () => {
    const row = statusLineRow({ ...status, off: 'watcher off' }, 100);
    expect(plain(row).startsWith(' ◈ rewind #14 · 2m ago · 2.1 MB · watcher off · agent idle')).toBe(true);
    expect(row).toContain('\x1b[33mwatcher off');
  });
});

describe('NO_COLOR', () => {
  it('keeps bold, dim and inverse, and drops every colour', () => {
    const status = { checkpoints: '#3 · just now', checkpointsOff: false, agent: 'agent idle', keys: 'Esc Esc rewind', notice: undefined };
    const coloured = statusLineRow(status, 80);
    const plain = statusLineRow(status, 80, true);
    const sgrs = (row: string) => [...row.matchAll(/\[([0-9;]*)m/g)].map((match) => match[1]);
    expect(sgrs(coloured)).toContain('1;35');
    expect(sgrs(plain).flatMap((codes) => codes?.split(';') ?? []).filter((code) => /^3[0-7]$|^4[0-7]$/.test(code))).toEqual([]);
    expect(plain).toContain('[1m ◈ rewind ');
    expect(statusLineRow({ ...status, notice: { text: 'boom', tone: 'error' } }, 80, true)).not.toMatch(/31m/);
  });
});
