// Gemini CLI (the pinned release), headless against the fake model: its BeforeTool hook,
// from a settings file in a home of our own, fires before write_file, replace and
// run_shell_command and holds each until it exits.
import path from 'node:path';
import { geminiSetup } from './harness.js';
import { describeHeadlessProof, shellCommand } from './proof.js';

describeHeadlessProof({
  agent: 'gemini',
  setup: (world, hooks) => geminiSetup(world, { hooks }),
  events: [
    { event: 'BeforeTool', matcher: 'write_file|replace|run_shell_command' },
    { event: 'AfterTool', matcher: 'write_file|replace|run_shell_command' },
    { event: 'BeforeAgent' },
    { event: 'AfterAgent' },
    { event: 'SessionStart' },
    { event: 'SessionEnd' },
    { event: 'Notification' },
  ],
  preTool: 'BeforeTool',
  expectedCalls: (root) => [
    { hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: path.join(root, 'notes.txt'), content: 'hello\n' } },
    { tool_name: 'replace', tool_input: { file_path: path.join(root, 'notes.txt'), old_string: 'hello\n', new_string: 'hello, world\n' } },
    { tool_name: 'run_shell_command', tool_input: { command: shellCommand } },
  ],
  placeholders: (_world, setup) => [[setup.configDirs[0] ?? '', '<GEMINI_CLI_HOME>']],
});
