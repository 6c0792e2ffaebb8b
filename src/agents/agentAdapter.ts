import type { ConversationPoint } from '../shared/conversation.js';
import type { ModeState, RestoreMode } from '../shared/restoreModes.js';
import type { TranscriptBytes } from '../shared/transcriptLines.js';

/** How the agent is started in the pane. */
export interface Launch {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** What the user must hear when the session starts (how to let the agent run Rewind's hooks, say): the status line's first hint. */
  notice?: string;
}

/** What one of the agent's hook calls means for Rewind. */
export interface HookOutcome {
  /** Take a checkpoint first (before a tool call that can change files, before a prompt). */
  checkpoint?: { trigger: string; label: string; onlyIfChanged?: boolean };
  /** What the agent is doing from now on. */
  activity?: 'busy' | 'idle';
  /** The agent's own session id, as the payload gives it. */
  agentSession?: string;
  /** The folder the agent works in, as the payload says: for labels only, never trusted to choose the project. */
  cwd?: string;
  /**
   * The files a tool call says it writes (as its input names them: absolute, or relative to
   * the agent's folder). Only a hint, never trusted: the checkpoint after the step stages them
   * as they are then, beside what the file watcher saw.
   */
  files?: string[];
  /** Something wrong with the payload, said on the hook's stderr (the call still goes on). */
  problem?: string;
  /** Where the agent's conversation stands: kept with the checkpoint, when there is one. */
  conversation?: ConversationPoint;
  /**
   * Tidying of the agent's own files this call makes due, done by whoever handles the call
   * (before its checkpoint): reading what a call means has no side effect of its own.
   */
  tidy?: () => void;
}

/** A conversation rebuilt as it was at a checkpoint: a new session file, and the session to resume. */
export interface RebuiltConversation {
  /** The new session's file: beside the original, never over it (or any other file). */
  file: string;
  /** Its text, in pieces written in order (made as it is written: it may be larger than memory allows). */
  content: Iterable<string>;
  /** The session to resume; undefined when no message is left (the agent starts a new conversation). */
  session: string | undefined;
  /** How many messages it keeps. */
  messages: number;
}

/** What an agent whose conversation Rewind can restore provides (layer 2, best effort). */
export interface ConversationSupport {
  /**
   * The conversation at `point` from its transcript's bytes as captured then; throws when they
   * cannot be read. `latest`: the transcript as it is now, if it can be read (an agent that
   * writes its file late has more of the conversation there; use it only to find a place an
   * id names). Both are read line by line, as often as needed, never whole.
   */
  rebuild(captured: TranscriptBytes, point: ConversationPoint, latest?: TranscriptBytes): RebuiltConversation;
  /**
   * Where the agent keeps its transcripts, in the environment `env` it runs in: a payload's
   * transcript is kept only when it is one there (none: nothing is kept).
   */
  transcripts?(env: NodeJS.ProcessEnv): TranscriptFolder;
  /**
   * Where a transcript kept on another machine (or for another folder) belongs for the
   * project at `projectRoot` in `env`, so a session rebuilt from it is one the agent resumes
   * there (`rewind import`); undefined: where it was; null: it has no place here.
   */
  relocate?(transcript: string, projectRoot: string, env: NodeJS.ProcessEnv): string | null | undefined;
  /** The user's own arguments to start the agent again resumed in `session` (none: a new conversation). */
  resumeArgs(args: readonly string[], session: string | undefined): string[];
  /** The command that starts the agent, for a resume command told to the user (default: the adapter's name). */
  readonly command?: string;
}

/** Where an agent keeps its transcripts. */
export interface TranscriptFolder {
  /** The folder (absolute; it may be reached through links). */
  folder: string;
  /** Whether the transcript's path below the folder (its parts, the file's name last) names session `session`'s own transcript. */
  names(parts: readonly string[], session: string): boolean;
}

/** Where busy/idle comes from: the agent's output going quiet, or its own events (hooks). */
export type ActivitySource = 'output' | 'hooks';

/**
 * What Rewind knows of one agent: how to launch it (what env and args to add: hook
 * settings), where busy/idle comes from, what a checkpoint can restore of it, how to label
 * its hook events, and how to rebuild and resume its conversation. Every call
 * the runtime makes into an adapter goes through its guard (runtime/adapterGuard.ts): an
 * adapter that throws or hangs never breaks a session or a restore of files.
 */
export interface AgentAdapter {
  /** The name on checkpoints (`agent`) and for `--agent`. */
  readonly name: string;
  /** Whether this adapter is for a command (its file name, e.g. `claude`). */
  handles(command: string): boolean;
  /** The agent's launch with what Rewind adds (nothing for the generic agent). */
  launch(launch: Launch, session: { id: string; cwd: string }): Launch;
  readonly activity: ActivitySource;
  /**
   * The agent has an Esc Esc of its own, and a single Esc at its idle prompt changes its state
   * (arms "Esc again", clears a draft): while it is idle, Rewind holds a first Esc back until
   * the Esc Esc window is over, so its own Esc Esc never half-happens. A busy agent gets the
   * first Esc at once (it interrupts).
   */
  readonly holdsFirstEsc?: boolean;
  /**
   * The key that makes the agent leave the way its user leaves it (printing how to resume),
   * pressed again until it does: what Rewind's /quit sends before ending it with SIGHUP,
   * which it would die of without a word. None: SIGHUP at once.
   */
  readonly quitKey?: string;
  /** What a restore can put back for a checkpoint this agent took part in (one without a kept conversation: files only, and why). */
  restoreModes(checkpoint: { conversation: unknown }): Record<RestoreMode, ModeState>;
  /**
   * What a hook call means (`payload`: the parsed JSON, or undefined when it was not JSON).
   * Agents without hooks have none.
   */
  hookEvent?(event: string, payload: unknown): HookOutcome;
  /**
   * What the agent's hook prints on its stdout at `event` so that the agent's model gets `note`
   * with the prompt (its prompt hook's added context); undefined for an event that cannot
   * carry it. Agents without it are never told (the user is asked to say it).
   */
  promptNote?(event: string, note: string): string | undefined;
  /** For an agent whose conversation can be restored: how to rebuild and resume it. */
  readonly conversation?: ConversationSupport;
}
