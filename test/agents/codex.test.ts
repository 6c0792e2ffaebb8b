// Codex (the pinned release), `codex exec` against the fake model: its PreToolUse hook, given
// as a per-run `-c hooks.…` override, fires before both apply_patch calls and the shell
// command (reported as Bash) and holds each until it exits. The run passes
// --dangerously-bypass-hook-trust: without it, untrusted hooks are skipped silently.
import { expect } from 'vitest';
import { codexSetup } from './harness.js';
import { describeHeadlessProof, shellCommand } from './proof.js';
import { patchFor } from './fakeModel/openai.js';

const matcher = 'apply_patch|Bash';

describeHeadlessProof({
  agent: 'codex',
  setup: (world, hooks) => codexSetup(world, { hooks, hookTrust: 'bypass' }),
  events: [
    { event: 'PreToolUse', matcher },
    { event: 'PostToolUse', matcher },
    { event: 'UserPromptSubmit' },
    { event: 'Stop' },
    { event: 'SessionStart' },
    { event: 'SessionEnd' },
    { event: 'Interrupt' },
    { event: 'PermissionRequest' },
  ],
  preTool: 'PreToolUse',
  expectedCalls: () => [
    { hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patchFor({ tool: 'write', path: 'notes.txt', content: 'hello\n' }) }, tool_use_id: expect.any(String) },
    { tool_name: 'apply_patch', tool_input: { command: patchFor({ tool: 'edit', path: 'notes.txt', oldText: 'hello\n', newText: 'hello, world\n' }) } },
    { tool_name: 'Bash', tool_input: { command: shellCommand } },
  ],
  placeholders: (_world, setup) => [[setup.configDirs[0] ?? '', '<CODEX_HOME>']],
});
