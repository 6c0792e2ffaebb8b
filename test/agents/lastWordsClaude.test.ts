// Claude Code's last words after Rewind exits (issue 14, item 1): it prints how to resume
// its session as it leaves; that line must be on the user's terminal once Rewind has exited,
// as in a bare run (the pinned release, offline, against the fake model). Codex's are in
// lastWordsInApp.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import { claudeSetup, createWorld, type AgentSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const prompt = 'Say hello';
const answer = 'Hello from the fake model.';

interface Agent {
  name: string;
  setup(world: AgentWorld): AgentSetup;
  ready: RegExp;
  quit: string;
  resume: RegExp;
}

const agents: Agent[] = [
  { name: 'claude', setup: (world) => claudeSetup(world, { hooks: {} }), ready: /^❯/m, quit: '/exit', resume: /claude --resume [0-9a-f-]{36}/ },
];

/** One prompt and its answer, then the agent's quit command: the screen once the program in the pty has exited. */
async function screenAfterQuit(world: AgentWorld, agent: Agent, inRewind: boolean): Promise<string> {
  const bare = agent.setup(world).interactive();
  const start = inRewind ? insideRewind(bare, world) : bare;
  const session: TermSession = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, inRewind ? 'rewind' : agent.name);
  try {
    await session.waitFor(agent.ready, 60_000, 'the prompt');
    session.write(prompt);
    await session.waitFor((screen) => screen.split(prompt).length > 1, 5_000, 'the typed prompt');
    session.write('\r');
    await session.waitFor((screen) => screen.includes(answer), 30_000, 'the answer');
    if (inRewind) await session.waitFor(/agent idle/, 30_000, 'the agent idle');
    session.write(agent.quit);
    await session.waitFor((screen) => screen.includes(agent.quit), 5_000, 'the typed command');
    session.write('\r');
    await session.exited;
    // The last frame reaches the screen just after the exit: wait for the resume line itself.
    await session.waitFor(agent.resume, 5_000, 'the resume line').catch(() => undefined);
    return session.text();
  } catch (error) {
    throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
  } finally {
    await stopTui(session);
  }
}

describe.each(agents)("$name's last words after Rewind exits", (agent) => {
  let world: AgentWorld;
  beforeAll(async () => {
    world = await createWorld((root) => [{ root, steps: [{ text: answer }] }, { root, steps: [{ text: answer }] }]);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('how to resume the session is on the outer screen after it quits, as bare', { timeout: 180_000 }, async () => {
    const bare = await screenAfterQuit(world, agent, false);
    expect(bare).toMatch(agent.resume);
    const inRewind = await screenAfterQuit(world, agent, true);
    expect(inRewind).toMatch(agent.resume);
  });
});
