import path from 'node:path';
import type { AgentAdapter, HookOutcome, Launch } from '../agentAdapter.js';
import { conversationModes } from '../conversationModes.js';
import { geminiConversation, geminiConversationPoint } from './conversation.js';
import { prepareGeminiHome, type GeminiSettings } from './home.js';
import { dropResumeLeftovers } from './leftovers.js';
import { hookCommand, installedHookScript, packagedHookScript } from '../hookCommand.js';
import { filePathOf, hookStep, promptContext } from '../hookSteps.js';
import { field, shortLine, shownPath } from '../payload.js';

/** The tools that can change files: each gets a checkpoint before it runs (docs/agents.md). */
const fileTools = 'write_file|replace|run_shell_command';
export const geminiHookEvents = ['BeforeTool', 'BeforeAgent', 'AfterAgent', 'SessionStart'] as const;
/** Gemini counts a hook's timeout in milliseconds: as long as the hook client's own watchdog. */
const timeoutMs = 120_000;

type HookGroup = { matcher?: string; hooks: { type: 'command'; command: string; timeout: number }[] };

/** The user's settings with Rewind's hook groups added after theirs for each event (none of theirs dropped). */
export function withGeminiHooks(user: GeminiSettings, agent = 'gemini', script = packagedHookScript()): GeminiSettings {
  const hooks: Record<string, unknown> = { ...(typeof user.hooks === 'object' && user.hooks !== null && !Array.isArray(user.hooks) ? user.hooks : {}) };
  for (const event of geminiHookEvents) {
    const ours: HookGroup = { ...(event === 'BeforeTool' ? { matcher: fileTools } : {}), hooks: [{ type: 'command', command: hookCommand(agent, event, script), timeout: timeoutMs }] };
    const theirs = hooks[event];
    hooks[event] = Array.isArray(theirs) ? [...(theirs as unknown[]), ours] : [ours];
  }
  return { ...user, hooks };
}

/**
 * `gemini …` with Rewind's hooks: the same command and arguments, run with a GEMINI_CLI_HOME
 * of Rewind's (home.ts) whose settings are the user's plus the hooks, and the user's
 * own trusted-folders file. No file of the user's is written.
 */
export function geminiLaunch(launch: Launch): Launch {
  let prepared: ReturnType<typeof prepareGeminiHome>;
  try {
    const script = installedHookScript(launch.env);
    prepared = prepareGeminiHome(launch.env, (user) => withGeminiHooks(user, 'gemini', script));
  } catch (error) {
    // Gemini runs as it would without Rewind (and says what is wrong with its settings itself).
    return { ...launch, notice: `Gemini runs without rewind's hooks (${error instanceof Error ? error.message : String(error)}): checkpoints come from Enter and file changes` };
  }
  const { home, userDir, already } = prepared;
  if (already) return launch;
  const trusted = launch.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(userDir, 'trustedFolders.json');
  return { ...launch, env: { ...launch.env, GEMINI_CLI_HOME: home, GEMINI_CLI_TRUSTED_FOLDERS_PATH: trusted } };
}

/** The label of a tool call: `write_file src/db.ts`, `replace src/db.ts`, `run_shell_command rm -rf tests`. */
function toolLabel(tool: string, input: unknown, cwd: string | undefined): string {
  const file = field(input, 'file_path');
  if (file) return `${tool} ${shortLine(shownPath(file, cwd))}`;
  const command = field(input, 'command');
  return command ? `${tool} ${shortLine(command)}` : tool;
}

/** What a Gemini CLI hook call means (docs/agents.md; test/fixtures/hooks/gemini/ are real payloads). */
export function geminiHookEvent(event: string, payload: unknown): HookOutcome {
  // The conversation goes with the step: before a prompt, all of it; inside a turn (a tool
  // call), up to that turn's prompt (the payloads name no prompt: the cut finds it).
  const outcome = hookStep(event, payload, {
    tool: 'BeforeTool',
    prompt: 'BeforeAgent',
    // SessionStart: started (or resumed, or /clear) and at its prompt, once its setup is done.
    idle: (name) => name === 'AfterAgent' || name === 'SessionStart',
    ends: ['AfterAgent'],
    label: toolLabel,
    files: filePathOf,
    conversation: (body, name) => geminiConversationPoint(body, name === 'BeforeTool'),
  });
  // A prompt: the session is at work in its own file, and what a resume left beside it can go.
  return event === 'BeforeAgent' ? { ...outcome, tidy: () => void dropResumeLeftovers(payload) } : outcome;
}

/** Gemini CLI: hooks before every write_file, replace and shell command and every prompt, busy/idle from them; its conversation restored. */
export const geminiAgent: AgentAdapter = {
  name: 'gemini',
  handles: (command) => command === 'gemini',
  launch: (launch) => geminiLaunch(launch),
  activity: 'hooks',
  holdsFirstEsc: true,
  // Ctrl-C twice, as its user leaves it: its goodbye box with `gemini --resume <id>` (SIGHUP ends it without a word).
  quitKey: '\x03',
  restoreModes: conversationModes,
  hookEvent: geminiHookEvent,
  promptNote: promptContext('BeforeAgent'),
  conversation: geminiConversation,
};
