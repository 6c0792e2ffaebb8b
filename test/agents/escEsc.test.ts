// Esc Esc in the app against the real agents' own Esc handling (Claude Code, Gemini CLI and
// Codex each act on Esc at an idle prompt): Rewind's Esc Esc, then closing the picker, must
// leave the agent exactly as it was, with no key swallowed; from a busy agent the first Esc
// still interrupts.
import { afterEach, describe, expect, it } from 'vitest';
import type { TermSession } from '../helpers/term.js';
import { startInPty } from '../helpers/term.js';
import type { Script } from './fakeModel/script.js';
import { claudeSetup, codexSetup, createWorld, geminiSetup, type AgentSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';
import { waitFor, waitForQuiet } from '../helpers/waitFor.js';

const greeting = 'Say hello';
const slowPrompt = 'Wait for the slow build';
const scripts = (root: string): Script[] => [
  { prompt: greeting, root, steps: [{ text: 'Hello there.' }] },
  { prompt: slowPrompt, root, steps: [{ tool: 'shell', command: 'sleep 30' }, { text: 'Built.' }] },
];

interface Agent {
  name: string;
  setup(world: AgentWorld): AgentSetup;
  /** What the agent shows once its prompt is ready for keys. */
  ready: RegExp;
  /** What the agent shows once a turn was interrupted. */
  interrupted: RegExp;
}

const agents: Agent[] = [
  { name: 'claude', setup: (world) => claudeSetup(world, { hooks: {} }), ready: /^❯/m, interrupted: /Interrupted/ },
  { name: 'gemini', setup: (world) => geminiSetup(world), ready: /Type your message/, interrupted: /Request cancelled/ },
  { name: 'codex', setup: (world) => codexSetup(world, { hooks: {}, hookTrust: 'bypass' }), ready: /Ask Codex to do anything/, interrupted: /Conversation interrupted/ },
];

/** The agent's pane: every row but Rewind's status row. */
const pane = (session: TermSession) => session.lines().slice(0, -1).join('\n');

/** Esc Esc in one read, the picker, Esc to close it: the pane must come back exactly as `before`. */
async function escEscAndBack(session: TermSession, before: string): Promise<void> {
  session.write('\x1b\x1b');
  await session.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
  session.write('\x1b');
  await session.waitFor(() => !session.text().includes('rewind to a checkpoint'), 10_000, 'the picker to close');
  await session.waitFor(() => pane(session) === before, 5_000, 'the pane as it was before Esc Esc').catch(() => {
    const after = pane(session).split('\n');
    const changed = before.split('\n').flatMap((line, row) => (line === after[row] ? [] : [`row ${row}: ${JSON.stringify(line)} -> ${JSON.stringify(after[row])}`]));
    throw new Error(`the pane is not as it was before Esc Esc:\n${changed.join('\n')}`);
  });
}

/** How often `text` is on the screen. */
const count = (session: TermSession, text: string) => session.text().split(text).length - 1;

/** Types `text` and waits for one more `seen` on the screen than before. */
async function typeAndSee(session: TermSession, text: string, seen: string): Promise<void> {
  const before = count(session, seen);
  session.write(text);
  await session.waitFor(() => count(session, seen) > before, 10_000, `"${seen}" on the screen`);
}

/**
 * The pane once it has stopped changing (the same for half a second) with no hook of the agent's
 * running (Gemini shows "Executing Hook: …" or "Executing Hooks: …" from a hook's start until
 * 3 s after it, however short the hook: its WARNING_PROMPT_DURATION_MS; the line can outlast
 * half a second of quiet and go while the picker is open): what a capture compares.
 */
async function settledPane(session: TermSession): Promise<string> {
  const hooksRunning = /Executing Hooks?:/;
  for (;;) {
    await session.waitFor((screen) => !hooksRunning.test(screen), 30_000, "the agent's hooks to end");
    const settled = await waitForQuiet(() => pane(session), 500, 15_000, 'the pane to settle');
    if (!hooksRunning.test(settled)) return settled;
  }
}

describe.each(agents)('Esc Esc in the app with $name', (agent) => {
  let world: AgentWorld | undefined;
  let session: TermSession | undefined;
  afterEach(async () => {
    if (session) await stopTui(session);
    await world?.close();
    session = undefined;
    world = undefined;
  });

  it('leaves a draft, an armed Esc and the next keys as they were; from a busy turn the first Esc interrupts', { timeout: 180_000 }, async () => {
    world = await createWorld(scripts);
    const start = insideRewind(agent.setup(world).interactive(), world);
    const here = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    session = here;
    try {
      await here.waitFor(agent.ready, 60_000, 'the agent ready at its prompt');
      await here.waitFor(/agent idle/, 30_000, 'the agent idle at its prompt');
      // A prompt answered first (Codex arms "edit previous message" only once there is one).
      await typeAndSee(here, greeting, greeting);
      here.write('\r');
      await here.waitFor(/Hello there\./, 30_000, 'the answer');
      await here.waitFor(/agent idle/, 30_000, 'the agent idle after the answer');

      // A draft: Esc Esc and back, and the next keys land after it.
      await typeAndSee(here, 'hello', 'hello');
      await escEscAndBack(here, await settledPane(here));
      await typeAndSee(here, ' world', 'hello world');
      // Clear the draft the agent's own way (Ctrl-U works in all three), for the next case.
      here.write('\x15');
      await here.waitFor((screen) => !screen.includes('hello world'), 10_000, 'the draft cleared');

      if (agent.name === 'codex') {
        // An Esc of the user's own, well before the Esc Esc: Codex arms "esc again"; Rewind's
        // Esc Esc then must not take it further (into its transcript view) or swallow a key.
        here.write('\x1b');
        await here.waitFor(/again to edit previous message/, 10_000, "Codex's armed Esc");
        await escEscAndBack(here, await settledPane(here));
        await typeAndSee(here, 'hello', 'hello');
        await here.waitFor(/^› hello$/m, 5_000, 'the whole draft in the composer');
        expect(here.text()).not.toMatch(/Browsing transcript/);
        here.write('\x15');
        await here.waitFor((screen) => !/^› hello$/m.test(screen), 10_000, 'the draft cleared');
      }

      // A busy turn: the first Esc of the Esc Esc interrupts it at once.
      await typeAndSee(here, slowPrompt, slowPrompt);
      here.write('\r');
      await here.waitFor(/agent busy/, 30_000, 'the agent busy');
      // The slow shell command runs (its checkpoint was taken before it).
      const engine = () => (world as AgentWorld).sandbox.open((world as AgentWorld).root);
      await waitFor(() => engine().list().some((record) => /sleep 30$/.test(record.label)), 30_000, 'the checkpoint before the slow command');
      here.write('\x1b\x1b');
      await here.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
      here.write('\x1b');
      await here.waitFor(agent.interrupted, 15_000, 'the turn interrupted');
      await here.waitFor(/agent idle/, 15_000, 'the agent idle after the interrupt');
      await typeAndSee(here, 'next', 'next');
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });
});
