import { UserError } from '../../shared/errors.js';
import type { PtySession } from '../../pty/ptySession.js';
import { newSessionId } from './sessionId.js';
import { paneHeightOf } from '../../app/paneSize.js';
import { chooseAgent } from '../../agents/chooseAgent.js';
import { AdapterGuard } from '../../agents/adapterGuard.js';
import type { RunAppOptions, RunSessionOptions } from './appOptions.js';
import { HookChannel } from '../../hooks/hookChannel.js';
import { spawnAgent } from './spawnAgent.js';
import type { Launch } from '../../agents/agentAdapter.js';

export type { RunAppOptions } from './appOptions.js';

/** Where the rest of the app comes from: the build's bundle, or its modules. */
export type SessionLoader = () => Promise<{ runSession: (options: RunSessionOptions) => Promise<number> }>;

/**
 * Runs the agent in Rewind's full-screen app until it exits; returns its exit code. The rest
 * of the app is loaded before the agent starts: the load holds the event loop (~0.15 s, more
 * on a busy machine), and an agent may ask its terminal something as it starts and wait only
 * so long for the answer (Codex gives its colours ~0.2 s, then draws without its theme).
 *
 * @throws CommandNotFoundError (exit 127) when the agent's command does not exist.
 */
export async function runApp(options: RunAppOptions, loadSession: SessionLoader = () => import('./runSession.js')): Promise<number> {
  const agent = chooseAgent(options.command, options.agent);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UserError('rewind runs the agent in a full-screen terminal app: start it from a terminal (scripts can use `rewind snapshot` and `rewind restore`)');
  }
  const sessionId = newSessionId(options.env);
  const { runSession } = await loadSession();
  // An agent with hooks talks to the app through this channel (REWIND_SOCKET).
  const hooks = agent.hookEvent ? new HookChannel() : undefined;
  const guard = new AdapterGuard(agent, (message) => process.stderr.write(`rewind: warning: ${message}\n`));
  let pty: PtySession;
  let launch: Launch;
  try {
    ({ pty, launch } = await spawnAgent({ ...options, sessionId, agent: guard, hooks }, options.args, process.stdout.columns || 80, paneHeightOf(process.stdout.rows || 24)));
  } catch (error) {
    hooks?.close();
    throw error;
  }

  try {
    return await runSession({ command: options.command, args: options.args, cwd: options.cwd, env: options.env, pty, sessionId, agent, hooks, hint: options.hint ?? launch.notice, resumeLine: options.resumeLine });
  } catch (error) {
    if (!pty.exitStatus) await pty.terminate();
    throw error;
  } finally {
    hooks?.close();
  }
}
