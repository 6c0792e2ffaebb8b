import fs from 'node:fs';
import type { AgentAdapter, HookOutcome, Launch } from '../agentAdapter.js';
import { claudeConversation, claudeConversationPoint } from './conversation.js';
import { conversationModes } from '../conversationModes.js';
import { hookCommand, installedHookScript, packagedHookScript } from '../hookCommand.js';
import { filePathOf, hookStep, promptContext } from '../hookSteps.js';
import { field, shortLine, shownPath } from '../payload.js';

/** The tools that can change files: each gets a checkpoint before it runs. */
const fileTools = 'Write|Edit|MultiEdit|NotebookEdit|Bash';
const events = ['PreToolUse', 'UserPromptSubmit', 'Stop', 'StopFailure', 'Notification', 'SessionStart'] as const;

type HookEntry = { matcher?: string; hooks: { type: 'command'; command: string; timeout: number }[] };
type Settings = Record<string, unknown> & { hooks?: Record<string, unknown> };

/** Rewind's hooks, in Claude Code's settings shape. */
function rewindHooks(agent: string, script: string): Record<string, HookEntry[]> {
  const entry = (event: string, matcher?: string): HookEntry[] => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: hookCommand(agent, event, script), timeout: 120 }] }];
  return Object.fromEntries(events.map((event) => [event, entry(event, event === 'PreToolUse' ? fileTools : undefined)]));
}

/** The user's own `--settings` value: a JSON text or a file of it (read, never written). */
function readSettings(value: string): Settings {
  const text = value.trim().startsWith('{') ? value : fs.readFileSync(value, 'utf8');
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`--settings ${value} is not a JSON object`);
  return parsed as Settings;
}

/** The user's settings with Rewind's hooks (running `script`) added to theirs (theirs first, none dropped). */
export function mergeSettings(user: Settings, agent = 'claude', script = packagedHookScript()): Settings {
  const hooks: Record<string, unknown> = { ...(user.hooks ?? {}) };
  for (const [event, ours] of Object.entries(rewindHooks(agent, script))) {
    const theirs = hooks[event];
    hooks[event] = Array.isArray(theirs) ? [...(theirs as unknown[]), ...ours] : ours;
  }
  return { ...user, hooks };
}

/**
 * `claude …` with `--settings` carrying Rewind's hooks, after the user's own arguments: the user's own `--settings` (one or
 * more, `--settings X` or `--settings=X`) are merged into one, never dropped, and no settings
 * file is edited.
 */
export function claudeLaunch(launch: Launch, agent = 'claude'): Launch {
  const args: string[] = [];
  let settings: Settings = {};
  /** Where the merged --settings goes: where the user's first one was (an option there may end a variadic one before it, as `--allowedTools Write "the prompt"` needs), else last among the options. */
  let at: number | undefined;
  let i = 0;
  for (; i < launch.args.length; i++) {
    const arg = launch.args[i] ?? '';
    if (arg === '--') break;
    const value = arg === '--settings' && i + 1 < launch.args.length ? launch.args[++i] : arg.startsWith('--settings=') ? arg.slice('--settings='.length) : undefined;
    if (value === undefined) {
      args.push(arg);
      continue;
    }
    settings = { ...settings, ...readSettings(value) };
    at ??= args.length;
  }
  const ours = ['--settings', JSON.stringify(mergeSettings(settings, agent, installedHookScript(launch.env)))];
  const place = at ?? args.length;
  return { ...launch, args: [...args.slice(0, place), ...ours, ...args.slice(place), ...launch.args.slice(i)] };
}

/** The label of a tool call: `Edit src/db.ts`, `Bash rm -rf tests`. */
function toolLabel(tool: string, input: unknown, cwd: string | undefined): string {
  const file = field(input, 'file_path') ?? field(input, 'notebook_path');
  if (file) return `${tool} ${shortLine(shownPath(file, cwd))}`;
  const command = field(input, 'command');
  if (command) return `${tool} ${shortLine(command)}`;
  return tool;
}

/** What a Claude Code hook call means (docs/agents.md: payloads). */
export function claudeHookEvent(event: string, payload: unknown): HookOutcome {
  // An interrupt fires no Stop; the idle prompt's notification says the agent waits. So does
  // a session that starts (or is resumed or cleared): until its first prompt, the agent waits,
  // whatever its screen does meanwhile (Claude erases a hint line a second or two after keys,
  // which output-based busy/idle took for work). A compaction may come in the middle of a turn.
  return hookStep(event, payload, {
    tool: 'PreToolUse',
    prompt: 'UserPromptSubmit',
    idle: (name, body) =>
      name === 'Stop' ||
      name === 'StopFailure' ||
      (name === 'Notification' && (field(body, 'notification_type') === 'idle_prompt' || /waiting for your input/i.test(field(body, 'message') ?? ''))) ||
      (name === 'SessionStart' && field(body, 'source') !== 'compact'),
    ends: ['Stop', 'StopFailure'],
    label: toolLabel,
    files: filePathOf,
    conversation: claudeConversationPoint,
  });
}

/** Claude Code: hooks before every file-changing tool call and prompt, busy/idle from them. */
export const claudeAgent: AgentAdapter = {
  name: 'claude',
  handles: (command) => command === 'claude',
  launch: (launch) => claudeLaunch(launch),
  activity: 'hooks',
  holdsFirstEsc: true,
  quitKey: '\x03',
  restoreModes: conversationModes,
  hookEvent: claudeHookEvent,
  promptNote: promptContext('UserPromptSubmit'),
  conversation: claudeConversation,
};
