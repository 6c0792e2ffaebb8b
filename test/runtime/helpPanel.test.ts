// `/help` tells the keys as the session reads them: what the first Esc of Esc Esc does for
// this agent (held back at an idle hook agent's prompt, sent at once to any other program),
// the pane's scroll keys, and the commands as the command bar runs them. A panel taller than
// the pane scrolls with the keys it names.
import { describe, expect, it } from 'vitest';
import { claudeAgent } from '../../src/agents/claude/adapter.js';
import { runAppCommand } from '../../src/runtime/session/appCommands.js';
import { sessionSandbox } from '../helpers/session.js';
import { waitFor } from '../helpers/waitFor.js';

const sessions = sessionSandbox('rewind-help-panel-');

async function helpOf(more: Parameters<typeof sessions.start>[4] = {}): Promise<string[]> {
  const root = sessions.sandbox().repo('help');
  const { session } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done'], undefined, more);
  await runAppCommand(session, 'line', '/help');
  const overlay = session.view().overlay;
  if (overlay?.kind !== 'panel') throw new Error('no help panel');
  return [...overlay.lines];
}

describe('/help', () => {
  it('for any program: the first Esc reaches it at once; the scroll keys; /checkpoints with its notices', async () => {
    const lines = await helpOf();
    expect(lines).toContain('Esc Esc                open the rewind picker (the first Esc still reaches the agent)');
    expect(lines).toContain("Shift+PgUp/PgDn        scroll back through the agent's output (the mouse wheel too)");
    expect(lines).toContain('/checkpoints           checkpoint count, disk usage and the last notices, whole');
  });

  it('for an agent that holds the first Esc at its prompt: says when it reaches it', async () => {
    const lines = await helpOf({ agent: claudeAgent });
    expect(lines).toContain('Esc Esc                open the rewind picker (the first Esc reaches the agent at once while it works, else only if no second comes)');
  });
});

describe('a panel taller than the pane', () => {
  it('scrolls with ↓ PgDn End ↑ Home (80 x 24), says which lines it shows, and q closes it', async () => {
    const root = sessions.sandbox().repo('scroll');
    const { session } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']);
    session.showOverlay({ kind: 'panel', title: 'Checkpoints', lines: Array.from({ length: 40 }, (_, i) => `line ${i}`) });
    const top = () => (session.view().overlay as { top?: number } | undefined)?.top ?? 0;
    const press = async (keys: string, expected: number) => {
      session.input(Buffer.from(keys));
      await waitFor(() => top() === expected, 5_000, `top ${expected} after ${JSON.stringify(keys)}`);
    };
    await press('\x1b[B', 1);
    await press('\x1b[6~', 18);
    await press('\x1b[F', 23);
    await press('\x1b[B', 23);
    await press('\x1b[A', 22);
    await press('\x1b[H', 0);
    session.input(Buffer.from('q'));
    await waitFor(() => session.view().overlay === undefined, 5_000, 'the panel closed');
  });
});
