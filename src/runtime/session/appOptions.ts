import type { AgentAdapter } from '../../agents/agentAdapter.js';
import type { PtySession } from '../../pty/ptySession.js';
import type { HookChannel } from '../../hooks/hookChannel.js';
import type { RewindConfig } from '../../config/schema.js';
import type { CheckpointAvailability } from '../checkpointing/checkpointer.js';
import type { TerminalColours } from '../../pty/terminalColours.js';
import type { OuterKeyboard } from '../../pty/screen.js';

/** What `rewind -- <command…>` runs. */
export interface RunAppOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--agent NAME`: the adapter to use whatever the command (default: chosen by the command). */
  agent?: string;
  /** A first hint for the status line (the demo says what to type). */
  hint?: string;
  /** Say how to resume the agent's session inside Rewind as it leaves (default true; the demo's temp project is not resumed). */
  resumeLine?: boolean;
}

/** The app around an agent already started. */
export interface RunSessionOptions extends Omit<RunAppOptions, 'agent'> {
  /** The agent, already started in its pty. */
  pty: PtySession;
  sessionId: string;
  /** Its adapter. */
  agent: AgentAdapter;
  /** The hook channel the agent was started with, for an agent with hooks. */
  hooks?: HookChannel;
}

/** One session's controller (SessionController): the agent started, and what surrounds it. */
export interface SessionOptions {
  /** The agent, started in a pty sized to the pane (see paneHeightOf). */
  pty: PtySession;
  /** The agent's command and the user's arguments: to start it again (a conversation restore). */
  command?: string;
  args?: readonly string[];
  /** This session's id (newSessionId): the agent has it as REWIND_SESSION. */
  sessionId: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: RewindConfig;
  /** The agent's adapter (default: the generic agent). */
  agent?: AgentAdapter;
  /** The channel its hooks call (an agent with hooks). */
  hooks?: HookChannel;
  /** A first hint in the status line, shown until the first Enter (or for a while). */
  hint?: string;
  /** What is wrong in config.json (each key's default stands in): said once the agent shows. */
  configProblems?: readonly string[];
  /** Known at once, or attached later (the agent starts first). */
  checkpoints?: CheckpointAvailability;
  columns: number;
  rows: number;
  /** Where mode changes for the outer terminal are written (the real stdout). */
  writeOuter: (data: string) => void;
  /** The outer terminal's colours, reported to the agent when it asks (see RunSessionOptions.colours; default: DEFAULT_COLOURS). */
  colours?: Promise<TerminalColours | undefined>;
  /** What the outer terminal told of its keyboard (the kitty protocol, its name), settled with the colours; default: nothing told. */
  keyboard?: Promise<OuterKeyboard>;
}
