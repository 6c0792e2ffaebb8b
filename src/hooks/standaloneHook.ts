import { logLine } from '../shared/runLog.js';
import type { HookOutcome } from '../agents/agentAdapter.js';
import { agentNamed } from '../agents/chooseAgent.js';
import { openSnapshotEngine } from '../checkpoints/index.js';
import { parsePayload } from '../agents/payload.js';
import { TURN_END_TRIGGER } from '../agents/hookSteps.js';
import { requireGit } from '../checkpoints/index.js';
import { loadConfigLenient } from '../config/lenient.js';
import { messageOf } from '../shared/errors.js';
import { AdapterGuard } from '../agents/adapterGuard.js';
import { hookFallback } from './hookCalls.js';
import { captureConversation, conversationStoreOf } from '../conversation/conversationRestore.js';

export interface StandaloneHookInput {
  agent: string;
  event: string;
  payload: Buffer;
  /** The payload is only its head (too long to keep, or it did not end in time). */
  cut?: boolean;
  env: NodeJS.ProcessEnv;
  /** The hook process's own folder: where the agent started it. */
  cwd: string;
  /** Where problems are said (the hook's stderr), one line each. */
  warn: (line: string) => void;
}

/**
 * The folder whose project the hook checkpoints: where the agent started its hook (Claude
 * Code names its project in CLAUDE_PROJECT_DIR; Gemini CLI and Codex start their hooks in
 * theirs), never a folder the payload names (its `cwd`, like everything in it, is untrusted).
 */
function projectFolder(agent: string, input: StandaloneHookInput): string {
  // Only Claude's: another agent run from inside a Claude session inherits Claude's variable.
  return (agent === 'claude' && input.env.CLAUDE_PROJECT_DIR) || input.cwd;
}

/**
 * A hook call with no app to take it (the agent run on its own with Rewind's hook, or the
 * app gone): the checkpoint the step asks for, taken here under the project lock. Never
 * throws: a problem is a line on stderr, and the agent goes on.
 */
export async function standaloneHook(input: StandaloneHookInput): Promise<void> {
  const started = performance.now();
  try {
    await hookCall(input);
  } finally {
    logLine(input.env, 'hook', { agent: input.agent, event: input.event, app: false, ms: Math.round(performance.now() - started) });
  }
}

async function hookCall(input: StandaloneHookInput): Promise<void> {
  const adapter = agentNamed(input.agent);
  const guard = new AdapterGuard(adapter, input.warn);
  const payload = parsePayload(input.payload, input.cut);
  const outcome = guard.call<HookOutcome>('a hook call', (agent) => agent.hookEvent?.(input.event, payload) ?? {}, () => hookFallback(input.event));
  if (outcome.problem) input.warn(outcome.problem);
  if (outcome.tidy) guard.call('tidying its files', outcome.tidy, () => undefined);
  if (!outcome.checkpoint) return;
  try {
    requireGit(input.env);
    const { config, problems } = await loadConfigLenient(input.env);
    for (const problem of problems) input.warn(problem);
    if (config.checkpointing_disabled) return;
    const checkpoints = openSnapshotEngine(projectFolder(adapter.name, input), config, input.env);
    // A turn's end marks where the steps before it end: with none yet, there is nothing to mark.
    if (outcome.checkpoint.trigger === TURN_END_TRIGGER && !checkpoints.initialized) return;
    for (const warning of await checkpoints.recoverList()) input.warn(warning);
    const conversation = captureConversation(conversationStoreOf(checkpoints), adapter.name, outcome.conversation, input.warn);
    const { onlyIfChanged, ...step } = outcome.checkpoint;
    const { warnings } = await checkpoints.snapshot({
      ...step,
      ...(onlyIfChanged ? { onlyIfChanged } : {}),
      ...(conversation ? { conversation } : {}),
      agent: adapter.name,
      session: input.env.REWIND_SESSION ?? null,
      agentSession: outcome.agentSession ?? null,
    });
    for (const warning of warnings) input.warn(warning);
  } catch (error) {
    input.warn(`no checkpoint before this step: ${messageOf(error)}`);
  }
}
