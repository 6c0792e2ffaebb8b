import { UserError } from '../shared/errors.js';
import { PtySession } from '../pty/ptySession.js';
import { newSessionId } from './sessionId.js';
import { paneHeightOf } from '../app/paneSize.js';
import type { runSession as RunSessionFunction } from './runSession.js';

export interface RunAppOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Where the rest of the app comes from: the build's bundle, or its modules. */
export type SessionLoader = () => Promise<{ runSession: typeof RunSessionFunction }>;

/**
 * Runs the agent in Rewind's full-screen app until it exits; returns its exit code. The
 * agent is started before the rest of the app is even loaded (its own start-up overlaps
 * ours; what it writes meanwhile waits in the pty session), then the app takes over.
 *
 * @throws CommandNotFoundError (exit 127) when the agent's command does not exist.
 */
export async function runApp(options: RunAppOptions, loadSession: SessionLoader = () => import('./runSession.js')): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UserError('rewind runs the agent in a full-screen terminal app: start it from a terminal (scripts can use `rewind snapshot` and `rewind restore`)');
  }
  const sessionId = newSessionId(options.env);
  const pty = await PtySession.spawn({
    command: options.command,
    args: options.args,
    cwd: options.cwd,
    env: { ...options.env, REWIND_SESSION: sessionId },
    cols: process.stdout.columns || 80,
    rows: paneHeightOf(process.stdout.rows || 24),
  });
  try {
    const { runSession } = await loadSession();
    return await runSession({ ...options, pty, sessionId });
  } catch (error) {
    if (!pty.exitStatus) await pty.terminate();
    throw error;
  }
}
