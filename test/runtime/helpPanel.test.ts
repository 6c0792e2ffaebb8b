// `/help` tells the keys as the session reads them: what the first Esc of Esc Esc does for
// this agent (held back at an idle hook agent's prompt, sent at once to any other program),
// the pane's scroll keys, and the commands as the command bar runs them.
import { describe, expect, it } from 'vitest';
import { claudeAgent } from '../../src/agents/claude/adapter.js';
import { runAppCommand } from '../../src/runtime/session/appCommands.js';
import { sessionSandbox } from '../helpers/session.js';

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
