// Gemini CLI (the pinned release) against the fake model, headless (`gemini -p --yolo`) and in
// its TUI in a pty: its BeforeTool hook, from a settings file in a home of our own, fires
// before write_file, replace and run_shell_command and holds each until it exits. In the
// TUI (auto_edit) the shell command asks first: BeforeTool fires before the dialog, then a
// Notification (ToolPermission).
import path from 'node:path';
import { geminiSetup } from './harness.js';
import { describeHeadlessProof, describeTuiProof, shellCommand, type AgentSpec } from './proof.js';
import { waitFor } from '../helpers/waitFor.js';

const matcher = 'write_file|replace|run_shell_command';

const gemini: AgentSpec = {
  agent: 'gemini',
  events: [
    { event: 'BeforeTool', matcher },
    { event: 'AfterTool', matcher },
    { event: 'BeforeAgent' },
    { event: 'AfterAgent' },
    { event: 'SessionStart' },
    { event: 'SessionEnd' },
    { event: 'Notification' },
  ],
  preTool: 'BeforeTool',
  turnEnd: 'AfterAgent',
  expectedCalls: (root) => [
    { hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: path.join(root, 'notes.txt'), content: 'hello\n' } },
    { tool_name: 'replace', tool_input: { file_path: path.join(root, 'notes.txt'), old_string: 'hello\n', new_string: 'hello, world\n' } },
    { tool_name: 'run_shell_command', tool_input: { command: shellCommand } },
  ],
  placeholders: (_world, setup) => [[setup.configDirs[0] ?? '', '<GEMINI_CLI_HOME>']],
};

describeHeadlessProof(gemini, { setup: (world, hooks) => geminiSetup(world, { hooks }) });

describeTuiProof(gemini, {
  setup: (world, hooks) => geminiSetup(world, { hooks, approvalMode: 'auto_edit' }),
  promptAsArgument: true,
  async drive(session, records) {
    await session.waitFor(/Allow execution of \[Shell\]\?/, 30_000, 'the shell confirmation');
    await waitFor(() => records().some((record) => record.event === 'Notification'), 30_000, 'the Notification hook');
    session.write('\r');
  },
});
