// Focus reports (`?1004`, issue 30): Claude Code, Codex and Gemini CLI ask for them. The
// outer terminal is told to send them while the agent wants them, and its reports reach the
// agent as they are, not as keys; while the agent has not asked, they go nowhere.
import { describe, expect, it } from 'vitest';
import type { PaneFrame } from '../../src/app/view.js';
import type { SessionController } from '../../src/runtime/session/controller.js';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';

const sessions = sessionSandbox('rewind-focus-');

/** The pane's text, kept current. */
function paneOf(session: SessionController): () => string {
  let frame: PaneFrame | undefined;
  session.onPaneFrame((next) => (frame = next));
  return () => frame?.rows.join('\n') ?? '';
}

// `cat -v` shows what reaches it: ESC as ^[.
const echo = (askFocus: boolean) => `${askFocus ? "printf '\\033[?1004h'; " : ''}stty raw -echo; printf 'ready\\r\\n'; exec cat -v`;

/** `cat -v` as the agent in a session of its own, ready: its pane, and what the outer terminal was sent. */
async function startEcho(name: string, askFocus: boolean) {
  const root = sessions.sandbox().repo(name);
  let outer = '';
  const { session } = await sessions.start(root, 'sh', ['-c', echo(askFocus)], (data) => (outer += data));
  const pane = paneOf(session);
  await waitFor(() => pane().includes('ready'), 5_000, 'the agent ready');
  return { session, pane, outer: () => outer };
}

describe('focus reports', () => {
  it('are asked of the outer terminal once the agent asks, and reach the agent as sent', async () => {
    const { session, pane, outer } = await startEcho('focus', true);
    await waitFor(() => outer().includes('\x1b[?1004h'), 5_000, 'focus reports asked of the outer terminal');
    session.input(Buffer.from('\x1b[O'));
    session.input(Buffer.from('\x1b[I'));
    await waitFor(() => pane().includes('^[[O^[[I'), 5_000, 'the reports at the agent');
  });

  it('go nowhere while the agent has not asked for them', async () => {
    const { session, pane, outer } = await startEcho('nofocus', false);
    session.input(Buffer.from('\x1b[I'));
    session.input(Buffer.from('x'));
    await waitFor(() => pane().includes('x'), 5_000, 'the key after it');
    expect(pane()).not.toContain('^[');
    expect(outer()).not.toContain('\x1b[?1004h');
  });
});
