import type { AgentAdapter, HookOutcome } from '../agentAdapter.js';
import { codexLaunch } from './launch.js';
import { patchFiles } from './patch.js';
import { codexConversation, codexConversationPoint } from './conversation.js';
import { conversationModes } from '../conversationModes.js';
import { hookStep, promptContext } from '../hookSteps.js';
import { field, shortLine, shownPath } from '../payload.js';

/** The label of a tool call: `apply_patch src/db.ts, README.md`, `Bash rm -rf tests`. */
function toolLabel(tool: string, input: unknown, cwd: string | undefined): string {
  const command = field(input, 'command');
  if (tool === 'apply_patch') {
    const files = command === undefined ? [] : patchFiles(command).map((file) => shownPath(file, cwd));
    return files.length > 0 ? `${tool} ${shortLine(files.join(', '))}` : tool;
  }
  return command ? `${tool} ${shortLine(command)}` : tool;
}

/** The files an apply_patch call writes, as its patch names them (relative to the agent's folder). */
function patchedFiles(tool: string, input: unknown): string[] {
  const command = field(input, 'command');
  return tool === 'apply_patch' && command !== undefined ? patchFiles(command) : [];
}

/** What a Codex hook call means (docs/agents.md; test/fixtures/hooks/codex/ are real payloads): an interrupt fires no Stop, but its own event. */
export function codexHookEvent(event: string, payload: unknown): HookOutcome {
  return hookStep(event, payload, { tool: 'PreToolUse', prompt: 'UserPromptSubmit', idle: (name) => name === 'Stop' || name === 'Interrupt', ends: ['Stop'], label: toolLabel, files: patchedFiles, conversation: codexConversationPoint });
}

/**
 * Codex: hooks before every apply_patch and shell command and every prompt, busy/idle from
 * them, given as per-run overrides (see launch.ts); they run once the user trusts them.
 */
export const codexAgent: AgentAdapter = {
  name: 'codex',
  handles: (command) => command === 'codex',
  launch: (launch) => codexLaunch(launch),
  activity: 'hooks',
  holdsFirstEsc: true,
  quitKey: '\x03',
  restoreModes: conversationModes,
  hookEvent: codexHookEvent,
  promptNote: promptContext('UserPromptSubmit'),
  conversation: codexConversation,
};
