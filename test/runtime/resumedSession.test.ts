// After a conversation restore the agent is started again in the rebuilt session: the
// session Rewind's resume line names is that one from then on (not the one the old agent's
// hooks last named), and none when the agent was started afresh, until its own hooks say.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeAgent } from '../../src/agents/claude/adapter.js';
import { configDefaults } from '../../src/config/schema.js';
import { PtySession } from '../../src/pty/ptySession.js';
import { HookChannel } from '../../src/hooks/hookChannel.js';
import { SessionController } from '../../src/runtime/session/controller.js';
import { runHookClient } from '../helpers/hookClient.js';
import { requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
let session: SessionController | undefined;
let channel: HookChannel | undefined;
beforeEach(() => {
  requireBuiltCli();
  sb = createSandbox('rewind-resumed-session-');
});
afterEach(async () => {
  await session?.stop();
  channel?.close();
  await sb.cleanup();
});

describe('the session the resume line names', () => {
  it("is the rebuilt one once the agent is started in it, none once started afresh, and the agent's own again at its next hook call", async () => {
    const root = sb.repo('resumed');
    const env = { ...sb.env, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const loop = ['-c', 'while :; do sleep 1; done'];
    const pty = await PtySession.spawn({ command: 'sh', args: loop, cwd: root, env: { PATH: env.PATH, HOME: sb.home }, cols: 80, rows: 24 });
    channel = new HookChannel();
    session = new SessionController({ pty, command: 'sh', args: loop, sessionId: 'test-session', cwd: root, env, config: configDefaults(), columns: 80, rows: 24, writeOuter: () => undefined, agent: claudeAgent, hooks: channel });
    session.start();
    const hookEnv = { REWIND_SOCKET: channel.env.REWIND_SOCKET };
    const startHook = (id: string) => runHookClient(['claude', 'SessionStart'], JSON.stringify({ session_id: id, cwd: root, hook_event_name: 'SessionStart', source: 'startup' }), hookEnv, root);

    expect((await startHook('old')).code).toBe(0);
    expect(session.agentSession()).toBe('old');
    await session.restartAgent((args) => [...args], 'rebuilt');
    expect(session.agentSession()).toBe('rebuilt');
    await session.restartAgent((args) => [...args]);
    expect(session.agentSession()).toBeUndefined();
    expect((await startHook('its-own')).code).toBe(0);
    expect(session.agentSession()).toBe('its-own');
  }, 30_000);
});
