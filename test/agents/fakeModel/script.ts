// What the fake model does, agent-neutral: a script of steps (tool calls, then text) per
// conversation, and the runner that picks the next step from the request's own history.
// The position comes from the history (tool results since the user's prompt), not from a
// counter, so a retried request gets the same step and each new prompt starts its script over.

/** A file written whole (path relative to the script's root). */
export interface WriteStep {
  tool: 'write';
  path: string;
  content: string;
}

/** One exact, unique replacement in a file. */
export interface EditStep {
  tool: 'edit';
  path: string;
  oldText: string;
  newText: string;
}

/** A shell command run in the script's root. */
export interface ShellStep {
  tool: 'shell';
  command: string;
}

/**
 * A subagent started on a task (Claude Code's `Agent` tool, `Task` in older releases): the
 * subagent's own requests carry `prompt` as their first user message, so a script of its own
 * (whose `prompt` occurs in it) plays the subagent's turns. Played by the Anthropic protocol only.
 */
export interface AgentStep {
  tool: 'agent';
  prompt: string;
  /** The short description the tool asks for. */
  description: string;
}

/** A plain text answer: it ends the turn. */
export interface TextStep {
  text: string;
}

/** What any tool step may add (played by the Anthropic protocol only). */
interface ToolStepExtras {
  /** Text said before the call, in the same reply (Claude Code writes it as a line of its own sharing message.id). */
  say?: string;
  /** Tool calls made in parallel with this one, in the same reply: the step's results are 1 + their count. */
  also?: (WriteStep | EditStep | ShellStep | AgentStep)[];
}

export type ToolStep = (WriteStep | EditStep | ShellStep | AgentStep) & ToolStepExtras;
export type Step = ToolStep | TextStep;

export interface Script {
  /** The conversation this script plays: the first whose `prompt` occurs in the user's prompt (none = any). */
  prompt?: string;
  /** The project the tools act on (absolute): tool paths are resolved against it. */
  root: string;
  steps: Step[];
}

/** What a protocol module read from one request: enough to pick the next step. */
export interface ConversationView {
  /** The text of the last user message that is not a tool result. */
  prompt: string;
  /** Tool results the agent sent back since that prompt. */
  toolResults: number;
  /** The names of the tools the request offers. */
  tools: string[];
}

/** The step a request gets, where it is in its script. */
export interface Pick {
  script: Script;
  index: number;
  step: Step;
}

/** Said once a script has run out (a retry past the end, or a second prompt with no script). */
export const fallbackText = 'Done.';

export function isToolStep(step: Step): step is ToolStep {
  return 'tool' in step;
}

/** Picks the step for a conversation turn; past the end of the script the model just says it is done. */
export function pickStep(scripts: readonly Script[], view: ConversationView): Pick | undefined {
  const script = scripts.find((candidate) => candidate.prompt === undefined || view.prompt.includes(candidate.prompt));
  if (!script) return undefined;
  // Each step consumes its calls' results (one, or more for parallel calls).
  let index = 0;
  for (let results = 0; results < view.toolResults && index < script.steps.length; index++) {
    const step = script.steps[index] as Step;
    results += isToolStep(step) ? 1 + (step.also?.length ?? 0) : 1;
  }
  const step = script.steps[index] ?? { text: fallbackText };
  return { script, index, step };
}
