// The app's session (SessionController) around a real agent in a real pty, for tests that
// need the controller without the full-screen app: a sandbox per test, stopped after it.
import { afterEach, beforeEach } from 'vitest';
import { configDefaults } from '../../src/config/schema.js';
import type { RewindConfig } from '../../src/config/schema.js';
import { PtySession } from '../../src/pty/ptySession.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { SessionController } from '../../src/runtime/session/controller.js';
import { createSandbox, type Sandbox } from './tempRepo.js';
import type { AgentAdapter } from '../../src/agents/agentAdapter.js';
import type { HookChannel } from '../../src/hooks/hookChannel.js';

export interface SessionStart {
  session: SessionController;
  pty: PtySession;
  /** The engine's environment (the sandbox's store and config) with PATH. */
  env: NodeJS.ProcessEnv;
  config: RewindConfig;
  /** Checkpoints for `root`, opened as the app opens them. */
  openCheckpoints(): ReturnType<typeof openForApp>;
}

/** What a test may add to the session: an agent's adapter, its hook channel, more environment. */
export interface SessionMore {
  agent?: AgentAdapter;
  hooks?: HookChannel;
  env?: NodeJS.ProcessEnv;
}

/** Registers a fresh sandbox for each test (`sandbox()`) and `start`, which starts a session in it. */
export function sessionSandbox(prefix: string): {
  sandbox(): Sandbox;
  start(root: string, command: string, args?: string[], writeOuter?: (data: string) => void, more?: SessionMore): Promise<SessionStart>;
} {
  let sb: Sandbox | undefined;
  let session: SessionController | undefined;
  beforeEach(() => {
    sb = createSandbox(prefix);
  });
  afterEach(async () => {
    await session?.stop();
    session = undefined;
    await sb?.cleanup();
  });
  const sandbox = () => {
    if (!sb) throw new Error('sessionSandbox: no sandbox outside a test');
    return sb;
  };
  return {
    sandbox,
    async start(root, command, args = [], writeOuter = () => undefined, more = {}) {
      const current = sandbox();
      const env = { ...current.env, PATH: process.env.PATH ?? '/usr/bin:/bin', ...more.env };
      const config = configDefaults();
      const pty = await PtySession.spawn({ command, args, cwd: root, env: { PATH: env.PATH, HOME: current.home }, cols: 80, rows: 24 });
      session = new SessionController({ pty, sessionId: 'test-session', cwd: root, env, config, columns: 80, rows: 24, writeOuter, ...(more.agent ? { agent: more.agent } : {}), ...(more.hooks ? { hooks: more.hooks } : {}) });
      session.start();
      return { session, pty, env, config, openCheckpoints: () => openForApp(root, config, env) };
    },
  };
}
