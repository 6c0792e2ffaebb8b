// The panels over the pane (/checkpoints, /config, /help): lines wrap to the box, never cut.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Panel, panelBody } from '../../src/app/Panel.js';
import { textWidth } from '../../src/app/picker/cut.js';
import { wrapToWidth } from '../../src/app/wrap.js';
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

  it('says how many lines are left out when the pane is too short for them all', () => {
    const body = panelBody(Array.from({ length: 30 }, (_, i) => `line ${i}`), 40, 10);
    expect(body).toHaveLength(10);
    expect(body.at(-1)).toBe('… 21 more line(s): make the terminal taller to see them');
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
