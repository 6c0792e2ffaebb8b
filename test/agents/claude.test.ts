// Claude Code (the pinned release) against the fake model, headless (`claude -p`) and in its
// TUI in a pty: its PreToolUse hook fires before Write, Edit and Bash and holds each until
// it exits. In the TUI, Bash is left to ask permission: the hook fires before the dialog,
// and a Notification (permission_prompt) follows while it waits.
import path from 'node:path';
import { expect } from 'vitest';
import { claudeSetup } from './harness.js';
import { claudeSlug } from './hookRecords.js';
import { describeHeadlessProof, describeTuiProof, shellCommand, type AgentSpec } from './proof.js';
import { waitFor } from '../helpers/waitFor.js';

const matcher = 'Write|Edit|MultiEdit|NotebookEdit|Bash';

const claude: AgentSpec = {
  agent: 'claude',
  events: [
    { event: 'PreToolUse', matcher },
    { event: 'PostToolUse', matcher },
    { event: 'UserPromptSubmit' },
    { event: 'Stop' },
    { event: 'StopFailure' },
    { event: 'Notification' },
    { event: 'SessionStart' },
    { event: 'SessionEnd' },
  ],
  preTool: 'PreToolUse',
  turnEnd: 'Stop',
  expectedCalls: (root) => [
    { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(root, 'notes.txt'), content: 'hello\n' }, tool_use_id: expect.any(String) },
    { tool_name: 'Edit', tool_input: { file_path: path.join(root, 'notes.txt'), old_string: 'hello\n', new_string: 'hello, world\n' } },
    { tool_name: 'Bash', tool_input: { command: shellCommand } },
  ],
  placeholders: (world, setup) => [
    [setup.configDirs[0] ?? '', '<CLAUDE_CONFIG_DIR>'],
    [claudeSlug(world.root), '<PROJECT_SLUG>'],
  ],
};

describeHeadlessProof(claude, { setup: (world, hooks) => claudeSetup(world, { hooks }) });

describeTuiProof(claude, {
  setup: (world, hooks) => claudeSetup(world, { hooks, allowedTools: ['Write', 'Edit'] }),
  promptAsArgument: true,
  async drive(session, records) {
    await session.waitFor(/Do you want to proceed\?/, 30_000, 'the permission dialog for Bash');
    // Claude sends the Notification a few seconds into the wait; answer after it came.
    await waitFor(() => records().some((record) => record.event === 'Notification'), 30_000, 'the Notification hook');
    session.write('\r');
  },
});
