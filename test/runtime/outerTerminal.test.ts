// What reaches the user's terminal beside the pane: the agent's window title, one-row notices.
import { describe, expect, it } from 'vitest';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';

const sessions = sessionSandbox('rewind-outer-');

describe("the agent's window title", () => {
  it('reaches the outer terminal, each time the agent sets it (OSC 0 or 2)', async () => {
    const root = sessions.sandbox().repo('titled');
    const script = "printf '\\033]0;first title\\007'; sleep 0.2; printf '\\033]2;second title\\033\\\\'; sleep 5";
    let outer = '';
    await sessions.start(root, 'sh', ['-c', script], (data) => (outer += data));
    await waitFor(() => outer.includes('\x1b]0;second title\x07'), 5_000, 'the second title');
    expect(outer.indexOf('\x1b]0;first title\x07')).toBeGreaterThanOrEqual(0);
    expect(outer.indexOf('\x1b]0;first title\x07')).toBeLessThan(outer.indexOf('\x1b]0;second title\x07'));
  });
});

describe("the agent's copies to the clipboard (OSC 52)", () => {
  it('reach the outer terminal; a read of the clipboard does not', async () => {
    const root = sessions.sandbox().repo('clipboard');
    const script = "printf '\\033]52;c;?\\007'; printf '\\033]52;c;aGVsbG8=\\033\\\\'; sleep 5";
    let outer = '';
    await sessions.start(root, 'sh', ['-c', script], (data) => (outer += data));
    await waitFor(() => outer.includes('\x1b]52;c;aGVsbG8=\x07'), 5_000, 'the copy');
    expect(outer).not.toContain('52;c;?');
  });
});

describe('notices', () => {
  it('keep to the status line: a message with line breaks (a git error) is shown on one row', async () => {
    const root = sessions.sandbox().repo('notice');
    const { session } = await sessions.start(root, 'cat');
    session.say('checkpoint failed: fatal: something\nhint: try this\r\nhint: or that', 'error');
    await waitFor(() => session.view().status.notice !== undefined, 5_000, 'the notice');
    expect(session.view().status.notice).toEqual({ text: 'checkpoint failed: fatal: something hint: try this hint: or that', tone: 'error' });
  });
});
