import type { AgentAdapter } from '../../agents/agentAdapter.js';
import type { PtySession } from '../../pty/ptySession.js';
import type { HookChannel } from '../../hooks/hookChannel.js';

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
