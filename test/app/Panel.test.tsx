// The panels over the pane (/checkpoints, /config, /help): lines wrap to the box, never cut.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Panel } from '../../src/app/Panel.js';
import { panelBody, scrollPanel } from '../../src/app/panelBody.js';
import { textWidth } from '../../src/app/picker/cut.js';
import { wrapHanging, wrapToWidth } from '../../src/app/wrap.js';
import { renderWait, type Rendered } from './renderWait.js';

const retention = 'Retention: every checkpoint is kept (pruning by checkpoint_retention_days and checkpoint_max_gb is not built yet).';
const opened: Rendered[] = [];
afterEach(() => {
  for (const view of opened.splice(0)) view.unmount();
});

/** The words of a drawn frame, borders and padding dropped. */
const words = (frame: string) => frame.replace(/[│╭╮╰╯─]/g, ' ').split(/\s+/).filter(Boolean);

describe('Panel', () => {
  it('wraps a line longer than the box (the retention line of /checkpoints) instead of cutting it', async () => {
    const view = renderWait(<Panel title="Checkpoints" lines={['3 checkpoint(s)', retention]} width={60} maxHeight={20} />);
    opened.push(view);
    const frame = await view.waitForFrame((f) => f.includes('Checkpoints'));
    for (const line of frame.split('\n')) expect(textWidth(line)).toBeLessThanOrEqual(60);
    expect(frame).not.toContain('…');
    const shown = words(frame);
    const at = shown.indexOf('Retention:');
    expect(shown.slice(at, at + words(retention).length)).toEqual(words(retention));
  });

  it('when the pane is too short for its lines: says which are shown and how to scroll to the others', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const body = panelBody(lines, 10);
    expect(body).toHaveLength(10);
    expect(body[0]).toBe('line 0');
    expect(body.at(-1)).toBe('… lines 1-9 of 30: ↑↓ PgUp PgDn scroll');
    expect(panelBody(lines, 10, 5)).toEqual([...lines.slice(5, 14), '… lines 6-14 of 30: ↑↓ PgUp PgDn scroll']);
    // Past the end: the last nine.
    expect(panelBody(lines, 10, 99)).toEqual([...lines.slice(21), '… lines 22-30 of 30: ↑↓ PgUp PgDn scroll']);
    // Room for one row (a terminal 7 rows tall or less): the line itself, never an empty "lines 1-0".
    expect(panelBody(lines, 1)).toEqual(['line 0']);
    expect(panelBody(lines, 1, 99)).toEqual(['line 29']);
    expect(panelBody(lines, 2, 99)).toEqual(['line 29', '… lines 30-30 of 30: ↑↓ PgUp PgDn scroll']);
  });

  it('scrollPanel: a line, a page, the ends, as drawn at that size; never past the last page', () => {
    const panel = { kind: 'panel' as const, title: 'Checkpoints', lines: Array.from({ length: 40 }, (_, i) => `line ${i}`) };
    // 80 x 24: the pane is 23 rows, the box 22, its body 18 (17 lines and the scroll line).
    const down = scrollPanel(panel, 'down', 80, 24);
    expect(down.top).toBe(1);
    expect(scrollPanel(down, 'up', 80, 24).top).toBe(0);
    expect(scrollPanel(panel, 'pageDown', 80, 24).top).toBe(17);
    expect(scrollPanel(panel, 'end', 80, 24).top).toBe(23);
    expect(scrollPanel({ ...panel, top: 23 }, 'down', 80, 24).top).toBe(23);
    expect(scrollPanel({ ...panel, top: 23 }, 'home', 80, 24).top).toBe(0);
    // 80 x 7: a body of one row scrolls a line at a time, to the last line.
    expect(scrollPanel(panel, 'pageDown', 80, 7).top).toBe(1);
    expect(scrollPanel(panel, 'end', 80, 7).top).toBe(39);
  });
});

describe('wrapToWidth', () => {
  it('breaks at spaces, keeps aligned columns, breaks a word longer than a line, counts wide characters as two', () => {
    expect(wrapToWidth('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapToWidth('key        value', 20)).toEqual(['key        value']);
    expect(wrapToWidth('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapToWidth('漢字漢字漢字', 5)).toEqual(['漢字', '漢字', '漢字']);
    expect(wrapToWidth('', 5)).toEqual(['']);
  });
});

describe('wrapHanging', () => {
  it('wraps as wrapToWidth does, each later line two columns in from the text\'s own indent; nothing lost or repeated', () => {
    expect(wrapHanging('  restore   a.txt  (as it was before the step)', 30)).toEqual(['  restore   a.txt  (as it was', '    before the step)']);
    expect(wrapHanging('  abcdefghijklmnopqrstuvwxyz', 16)).toEqual(['  abcdefghijklmn', '    opqrstuvwxyz']);
    expect(wrapHanging('no indent at all here, wrapped once', 20)).toEqual(['no indent at all', '  here, wrapped once']);
    // Whole when it fits or the room is too small to wrap into; trailing spaces that go over are dropped.
    expect(wrapHanging('  exactly twenty col', 20)).toEqual(['  exactly twenty col']);
    expect(wrapHanging('  too narrow to wrap into', 11)).toEqual(['  too narrow to wrap into']);
    expect(wrapHanging(`  fits${' '.repeat(20)}`, 14)).toEqual(['  fits']);
    expect(wrapHanging('  漢字漢字 漢字漢字', 14)).toEqual(['  漢字漢字', '    漢字漢字']);
  });
});
