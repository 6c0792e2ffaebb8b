// Claude Code (the pinned release), headless against the fake model: its PreToolUse hook
// fires before Write, Edit and Bash and holds each until it exits.
import path from 'node:path';
import { expect } from 'vitest';
import { claudeSetup } from './harness.js';
import { claudeSlug } from './hookRecords.js';
import { describeHeadlessProof, shellCommand } from './proof.js';

describeHeadlessProof({
  agent: 'claude',
  setup: (world, hooks) => claudeSetup(world, { hooks }),
  events: [
    { event: 'PreToolUse', matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash' },
    { event: 'PostToolUse', matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash' },
    { event: 'UserPromptSubmit' },
    { event: 'Stop' },
    { event: 'StopFailure' },
    { event: 'Notification' },
    { event: 'SessionStart' },
    { event: 'SessionEnd' },
  ],
  preTool: 'PreToolUse',
  expectedCalls: (root) => [
    { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(root, 'notes.txt'), content: 'hello\n' }, tool_use_id: expectAnyString() },
    { tool_name: 'Edit', tool_input: { file_path: path.join(root, 'notes.txt'), old_string: 'hello\n', new_string: 'hello, world\n' } },
    { tool_name: 'Bash', tool_input: { command: shellCommand } },
  ],
  placeholders: (world, setup) => [
    [setup.configDirs[0] ?? '', '<CLAUDE_CONFIG_DIR>'],
    [claudeSlug(world.root), '<PROJECT_SLUG>'],
  ],
});

function expectAnyString(): unknown {
  return expect.any(String);
}
