// Hyperlinks (OSC 8, issue 30): a link the agent prints reaches the user's terminal as a link,
// drawn by Rewind's pane inside the same OSC 8 (the terminal then opens it on a click).
import { describe, expect, it } from 'vitest';
import { termSandbox } from '../helpers/termSandbox.js';

const terminals = termSandbox('rewind-links-');

describe('a hyperlink the agent prints', () => {
  it('reaches the outer terminal as the same link around the same text', async () => {
    const sb = terminals.sandbox();
    const root = sb.repo('links');
    const script = "printf 'docs: \\033]8;;https://example.com/guide\\033\\\\the guide\\033]8;;\\033\\\\ end\\n'; sleep 30";
    const session = terminals.start(['--', 'sh', '-c', script], { cwd: root, env: sb.env, cols: 80, rows: 12 });
    await session.waitFor((screen) => screen.includes('docs: the guide end'), 10_000, 'the line');
    expect(session.output()).toContain('\x1b]8;;https://example.com/guide\x1b\\the guide\x1b]8;;\x1b\\');
  });
});
