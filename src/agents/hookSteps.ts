// The outcomes of hook calls the agents share (Claude Code, Codex, Gemini CLI, the demo): a
// tool call about to run, a prompt sent, the turn over, and what every call says (session, folder).
import type { HookOutcome } from './agentAdapter.js';
import { field, shortLine } from './payload.js';

/** The label of a tool call, from the tool's name, its input and the folder the agent works in. */
export type ToolLabel = (tool: string, input: unknown, cwd: string | undefined) => string;

/** The files a tool call's input names as those it writes (none: a tool that names none). */
export type ToolFiles = (tool: string, input: unknown) => string[];

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
export function toolStep(event: string, payload: unknown, label: ToolLabel, files?: ToolFiles): HookOutcome {
  const base = callBasics(payload);
  const tool = field(payload, 'tool_name') ?? 'tool';
  const input = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>).tool_input : undefined;
  const named = files?.(tool, input) ?? [];
  return { ...base, ...unreadable(event, payload), activity: 'busy', checkpoint: { trigger: `${event}:${tool}`, label: label(tool, input, base.cwd) }, ...(named.length > 0 ? { files: named } : {}) };
}

/** The file a tool's input names in `file_path` (or `notebook_path`), if any. */
export const filePathOf: ToolFiles = (_tool, input) => {
  const file = field(input, 'file_path') ?? field(input, 'notebook_path');
  return file ? [file] : [];
};

/** A prompt sent (`prompt`): busy, and a checkpoint first, labelled with the prompt. */
export function promptStep(event: string, payload: unknown): HookOutcome {
  const prompt = field(payload, 'prompt');
  return { ...callBasics(payload), ...unreadable(event, payload), activity: 'busy', checkpoint: { trigger: event, label: prompt ? shortLine(prompt) : '(prompt)' } };
}

/** The trigger of the checkpoint taken as a turn ends: what the agent's turn changed ends there. */
export const TURN_END_TRIGGER = 'end';

/** A turn over (the agent stopped, failed or was interrupted): idle, and a checkpoint marking where its turn's writes end. */
function turnEnd(payload: unknown): HookOutcome {
  return { ...callBasics(payload), activity: 'idle', checkpoint: { trigger: TURN_END_TRIGGER, label: 'end of turn' } };
}

/** How an agent's hook events read: which one is a tool call, which a prompt, which say it waits. */
export interface HookEvents {
  tool: string;
  prompt: string;
  /** Whether this event (with its payload) says the agent waits. */
  idle(event: string, payload: unknown): boolean;
  /** The idle events that end a turn (not those that only say the agent still waits): each marks the turn's end with a checkpoint. */
  ends: readonly string[];
  label: ToolLabel;
  /** The files a tool call names as those it writes. */
  files?: ToolFiles;
  /** Where the conversation stands at a step, if the agent's conversation is kept. */
  conversation?(payload: unknown, event: string): HookOutcome['conversation'];
}

/**
 * What a hook call means: a tool call (busy, a checkpoint first, with the conversation where
 * it stands), a prompt (the same, labelled with the prompt), the end of a turn (idle, and a
 * checkpoint that marks it, so what came after is not the turn's), another event that says
 * the agent waits (idle); any other only says the session and folder.
 */
export function hookStep(event: string, payload: unknown, agent: HookEvents): HookOutcome {
  const step = event === agent.tool ? toolStep(event, payload, agent.label, agent.files) : event === agent.prompt ? promptStep(event, payload) : undefined;
  if (!step && agent.ends.includes(event)) return turnEnd(payload);
  if (!step) return agent.idle(event, payload) ? { ...callBasics(payload), activity: 'idle' } : callBasics(payload);
  const conversation = agent.conversation?.(payload, event);
  return conversation ? { ...step, conversation } : step;
}

/**
 * The prompt hook's answer that adds `note` to what the model gets with the prompt, in the
 * shape Claude Code (UserPromptSubmit), Gemini CLI (BeforeAgent) and Codex (UserPromptSubmit)
 * all read from a hook's stdout: `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`.
 * Only at `prompt` (Claude Code rejects an answer naming another event; Codex's schemas differ per event).
 */
export function promptContext(prompt: string): (event: string, note: string) => string | undefined {
  return (event, note) => (event === prompt ? JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: note } }) : undefined);
}
