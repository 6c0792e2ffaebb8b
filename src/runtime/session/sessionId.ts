import { randomBytes } from 'node:crypto';

/** An app session's id: on its checkpoints, and REWIND_SESSION for the agent (its hooks). */
export function newSessionId(env: NodeJS.ProcessEnv, now = new Date()): string {
  return env.REWIND_SESSION || `${now.toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`;
}
