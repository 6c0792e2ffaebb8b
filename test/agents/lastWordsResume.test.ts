// The real agents as Rewind leaves (issue 24, item 5): their own last words stay on the
// terminal (how they resume outside Rewind), then Rewind's one line that resumes the same
// session inside Rewind with the user's own arguments: after the agent's own quit, and after
// Rewind's Ctrl+] /quit (of which Codex and Gemini used to leave nothing at all: SIGHUP killed
// them before they left their full screen). The pinned releases, offline, against the fake model.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellWord } from '../../src/shared/shellWord.js';
import { startInPty, type TermSession } from '../helpers/term.js';
import { waitForQuiet } from '../helpers/waitFor.js';
import { trustAll } from './codexDialogs.js';
import { claudeSetup, codexSetup, createWorld, geminiSetup, type AgentSetup, type AgentWorld, type Invocation } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const prompt = 'Say hello';
const answer = 'Hello from the fake model.';
const id = /[0-9a-f]{8}-[0-9a-f-]{27}/;

interface Agent {
  name: string;
  setup(world: AgentWorld): AgentSetup;
  /** Answers what the agent asks before its prompt (Codex's hook review). */
  before?(session: TermSession): Promise<void>;
  ready: RegExp;
  quit: string;
  /** What it shows once it has read the typed quit command (an Enter before that can go unheard). */
  quitShown?: RegExp;
  /** Its own resume hint, the session id captured. */
  hint: RegExp;
  /** The resume args Rewind adds to the user's. */
  resume(session: string): string[];
}

const claude: Agent = {
  name: 'claude',
  setup: (world) => claudeSetup(world, { hooks: {} }),
  ready: /^❯/m,
  quit: '/exit',
  hint: /claude --resume ([0-9a-f-]{36})/,
  resume: (session) => ['--resume', session],
};
const codex: Agent = {
  name: 'codex',
  setup: (world) => codexSetup(world),
  // Each test in a world of its own: the review comes every time (a trust holds for the next run).
  before: trustAll,
  ready: /Ask Codex to do anything/,
  quit: '/quit',
  hint: /codex resume ([0-9a-f-]{36})/,
  resume: (session) => ['resume', session],
};
const gemini: Agent = {
  name: 'gemini',
  setup: (world) => geminiSetup(world),
  ready: /Type your message/,
  quit: '/quit',
  quitShown: /quit +Exit the cli/,
  hint: /gemini --resume ([0-9a-f-]{36})/,
  resume: (session) => ['--resume', session],
};

/** The agent's own words after `rewind --` (its command and the user's arguments). */
function agentWords(bare: Invocation): string[] {
  return bare.args.slice(bare.args.lastIndexOf('--') + 1);
}

/** One prompt and its answer inside Rewind, then `leave`: the outer screen once Rewind has exited and its line is there. */
async function screenAfter(world: AgentWorld, agent: Agent, leave: (session: TermSession) => Promise<void>): Promise<{ text: string; words: string[] }> {
  const bare = agent.setup(world).interactive();
  const start = insideRewind(bare, world);
  const session = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 300, rows: 32 }, 'rewind');
  try {
    await agent.before?.(session);
    await session.waitFor(agent.ready, 60_000, 'the prompt');
    session.write(prompt);
    await session.waitFor((screen) => screen.split(prompt).length > 1, 5_000, 'the typed prompt');
    session.write('\r');
    await session.waitFor((screen) => screen.includes(answer), 30_000, 'the answer');
    await session.waitFor(/agent idle/, 30_000, 'the agent idle');
    await leave(session);
    const exit = await Promise.race([session.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Rewind did not exit within 30 s')), 30_000))]);
    expect(exit.exitCode).toBe(0);
    await session.waitFor(/Resume in Rewind: .*\n*$/, 5_000, 'the resume line');
    return { text: session.text(), words: agentWords(bare) };
  } catch (error) {
    throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
  } finally {
    await stopTui(session);
  }
}

/** Its own quit command, typed at its prompt. */
const ownQuit = (agent: Agent) => async (session: TermSession) => {
  session.write(agent.quit);
  await session.waitFor((screen) => screen.includes(agent.quit) && (agent.quitShown?.test(screen) ?? true), 5_000, 'the typed command');
  const shown = agent.quitShown;
  // Gemini CLI can take an Enter that comes just after its menu drew for completing the menu
  // (the input unchanged): Enter once the menu is drawn out, and as a user whose Enter did
  // nothing, again while the menu stays (CI once saw two go unheard).
  if (shown) await waitForQuiet(() => session.lines().slice(0, -1).join('\n'), 300, 5_000, 'the menu drawn').catch(() => undefined);
  session.write('\r');
  if (!shown) return;
  for (let again = 0; again < 3; again++) {
    const heard = await Promise.race([
      session.exited.then(() => true),
      session.waitFor((screen) => !shown.test(screen), 4_000, 'the menu gone').then(() => true, () => false),
    ]);
    if (heard) return;
    session.write('\r');
  }
};

/** Rewind's command bar: Ctrl+] then /quit. */
async function rewindQuit(session: TermSession): Promise<void> {
  session.write('\x1d');
  await session.waitFor(/◈ \//, 5_000, 'the command bar');
  session.write('/quit');
  session.write('\r');
}

/** Its own hint is there, and the last line resumes that same session in Rewind with the user's arguments. */
function expectWayBack(agent: Agent, { text, words }: { text: string; words: string[] }): void {
  const session = agent.hint.exec(text)?.[1];
  expect(session, `its own hint on:\n${text}`).toMatch(id);
  const line = text.trimEnd().split('\n').at(-1);
  expect(line).toBe(`Resume in Rewind: rewind -- ${[...words, ...agent.resume(session ?? '')].map(shellWord).join(' ')}`);
}

describe.each([claude, codex, gemini])('$name as Rewind leaves', (agent) => {
  let world: AgentWorld;
  beforeEach(async () => {
    world = await createWorld((root) => [{ root, steps: [{ text: answer }] }]);
  });
  afterEach(async () => {
    await world?.close();
  });

  it(`its own ${agent.quit}: its resume hint, then the line that resumes it inside Rewind`, { timeout: 180_000 }, async () => {
    expectWayBack(agent, await screenAfter(world, agent, ownQuit(agent)));
  });

  it('Ctrl+] /quit: it leaves its own way (its resume hint is there), then the line that resumes it inside Rewind', { timeout: 180_000 }, async () => {
    expectWayBack(agent, await screenAfter(world, agent, rewindQuit));
  });
});
