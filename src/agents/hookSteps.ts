// The outcomes of hook calls that agents with Claude-style hooks share (Claude Code, Codex):
// a tool call about to run, a prompt sent, and what every call says (session, folder).
import type { HookOutcome } from './agentAdapter.js';
import { field, shortLine } from './payload.js';

/** The label of a tool call, from the tool's name, its input and the folder the agent works in. */
export type ToolLabel = (tool: string, input: unknown, cwd: string | undefined) => string;

/** What any hook call gives: the agent's session id and folder, as the payload says. */
export function callBasics(payload: unknown): HookOutcome {
  return { agentSession: field(payload, 'session_id'), cwd: field(payload, 'cwd') };
}

/** Said on the hook's stderr when a step's payload is no JSON (the checkpoint is taken all the same). */
function unreadable(event: string, payload: unknown): HookOutcome {
  return payload === undefined ? { problem: `the ${event} payload was not JSON: checkpointed all the same` } : {};
}

/**
 * A tool call about to run (`tool_name`, `tool_input`): busy, and a checkpoint first,
 * triggered `<event>:<tool>` and labelled by `label` (the tool, its input, the agent's folder).
 */
export function toolStep(event: string, payload: unknown, label: ToolLabel): HookOutcome {
  const base = callBasics(payload);
  const tool = field(payload, 'tool_name') ?? 'tool';
  const input = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>).tool_input : undefined;
  return { ...base, ...unreadable(event, payload), activity: 'busy', checkpoint: { trigger: `${event}:${tool}`, label: label(tool, input, base.cwd) } };
}

/** A prompt sent (`prompt`): busy, and a checkpoint first, labelled with the prompt. */
export function promptStep(event: string, payload: unknown): HookOutcome {
  const prompt = field(payload, 'prompt');
  return { ...callBasics(payload), ...unreadable(event, payload), activity: 'busy', checkpoint: { trigger: event, label: prompt ? shortLine(prompt) : '(prompt)' } };
}

/**
 * A hook call of an agent with Claude-style events: `PreToolUse` (a tool call), `UserPromptSubmit`
 * (a prompt), one of its `idle` events (the turn is over); any other only says the session and folder.
 */
export function claudeStyleHook(event: string, payload: unknown, agent: { label: ToolLabel; idle: readonly string[] }): HookOutcome {
  if (event === 'PreToolUse') return toolStep(event, payload, agent.label);
  if (event === 'UserPromptSubmit') return promptStep(event, payload);
  return agent.idle.includes(event) ? { ...callBasics(payload), activity: 'idle' } : callBasics(payload);
}
