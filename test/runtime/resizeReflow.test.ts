// A resize narrower then back wider (issue 14, item 9): the emulator reflows as a terminal
// does, so an inline agent's last row stays on the pane's last row, as in a bare terminal
// (Gemini's input box was left mid-screen above blank rows).
import { describe, expect, it } from 'vitest';
import type { PaneFrame } from '../../src/app/view.js';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';

const sessions = sessionSandbox('rewind-reflow-');

describe('a resize 80 -> 40 -> 80 columns', () => {
  it("keeps an inline program's last row at the bottom of the pane, its cursor with it", async () => {
    const root = sessions.sandbox().repo('reflow');
    // 30 lines of 60 columns (two rows each at 40 columns), then the "input box" on the last row.
    const script = `for i in $(seq 1 30); do printf 'line %02d %051d\\n' $i 0; done; printf '> box'; sleep 30`;
    const { session } = await sessions.start(root, 'sh', ['-c', script]);
    let frame: PaneFrame | undefined;
    session.onPaneFrame((next) => (frame = next));
    const lastRow = () => frame?.rows.findLastIndex((row) => row !== '') ?? -1;
    await waitFor(() => frame?.rows.at(-1) === '> box', 5_000, 'the box on the last row');
    const before = frame;
    session.resize(40, 24);
    await waitFor(() => frame !== before && frame?.rows.at(-1) === '> box' && frame.rows[0]?.length === 40, 5_000, 'the narrow pane');
    session.resize(80, 24);
    await waitFor(() => frame?.rows.some((row) => row.length > 40) === true, 5_000, 'the wide pane');
    expect(frame?.rows).toEqual(before?.rows);
    expect(lastRow()).toBe(22);
    expect(frame?.cursor).toEqual({ x: 5, y: 22, visible: true });
  });
});
