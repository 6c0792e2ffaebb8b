import type { PtySession as PtySessionType } from '../../pty/ptySession.js';
import { PtySession } from '../../pty/ptySession.js';
import type { Launch } from '../../agents/agentAdapter.js';
import type { AdapterGuard } from '../../agents/adapterGuard.js';
import type { HookChannel } from '../../hooks/hookChannel.js';

/** What starting the agent needs: the same at the session's start and when it is started again. */
export interface AgentStart {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  sessionId: string;
  agent: AdapterGuard;
  hooks?: HookChannel;
}

/**
 * Starts the agent in a pty of `cols` x `rows` with `args`, and what its adapter adds (hook
 * settings; a failing adapter launches the command as it is), the session's channel and ids
 * in its environment.
 *
 * @throws CommandNotFoundError (exit 127) when the agent's command does not exist.
 */
export async function spawnAgent(start: AgentStart, args: readonly string[], cols: number, rows: number): Promise<{ pty: PtySessionType; launch: Launch }> {
  const launch = start.agent.launch(
    { command: start.command, args, env: { ...start.env, ...start.hooks?.env, REWIND_SESSION: start.sessionId, REWIND_AGENT: start.agent.name } },
    { id: start.sessionId, cwd: start.cwd },
  );
  const pty = await PtySession.spawn({ command: launch.command, args: launch.args, cwd: start.cwd, env: launch.env, cols, rows });
  return { pty, launch };
}
