// Shift+Enter on the real agents (issue 30): in a terminal that speaks the kitty keyboard
// protocol (the test terminal plays kitty: it keeps the flags a program pushes, answers
// `CSI ? u` and XTVERSION, and sends Shift+Enter as `CSI 13 ; 2 u` once asked to), Claude Code
// and Codex take Shift+Enter as a newline in their prompt. Inside Rewind they must too, as
// bare: the agent's keyboard request reaches the outer terminal, the key comes back encoded
// and reaches the agent as sent; Esc Esc, each Esc then sent as `CSI 27 u`, still opens the picker.
import { describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import { OuterKeyboard } from '../helpers/outerKeyboard.js';
import type { Script } from './fakeModel/script.js';
import { claudeSetup, codexSetup, createWorld, type AgentSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';
import { waitFor } from '../helpers/waitFor.js';
import { trustAll } from './codexDialogs.js';

const scripts = (root: string): Script[] => [{ root, steps: [{ text: 'Noted.' }] }];
/** What a kitty window sets in its programs' environment (Claude Code reads it to decide on the protocol). */
const kittyEnv = { KITTY_WINDOW_ID: '1' };

interface AgentCase {
  name: string;
  setup: (world: AgentWorld) => AgentSetup;
  /** The agent's prompt, ready for keys. */
  ready: RegExp;
  /** What the agent asks first inside Rewind, answered (Codex reviews the hooks Rewind adds). */
  inRewind?(session: TermSession): Promise<void>;
}

const agents: AgentCase[] = [
  { name: 'claude', setup: (world) => claudeSetup(world, { env: kittyEnv }), ready: /^❯/m },
  { name: 'codex', setup: (world) => codexSetup(world, { env: kittyEnv }), ready: /Ask Codex to do anything/, inRewind: trustAll },
];

interface Typed {
  /** The prompt's two lines, each on a row of its own: a newline, not a submit. */
  twoRows: boolean;
  /** Requests the model got (a submit sends one). */
  requests: number;
  /** What the terminal sent for Shift+Enter (the kitty flags in force then decide). */
  sent: string;
}

/** Types `first line`, Shift+Enter, `second line` at the agent's prompt, bare or inside Rewind, in the kitty terminal. */
async function typeTwoLines(agent: AgentCase, inRewind: boolean): Promise<Typed> {
  const world = await createWorld(scripts);
  const keyboard = new OuterKeyboard({ kitty: true, modifyOtherKeys: false, version: 'kitty(0.35.2)' });
  let session: TermSession | undefined;
  try {
    const start = agent.setup(world).interactive();
    const run = inRewind ? insideRewind(start, world) : start;
    session = startInPty(run.command, run.args, { cwd: run.cwd, env: run.env, cols: 100, rows: inRewind ? 30 : 29, keyboard }, inRewind ? 'rewind' : agent.name);
    const here = session;
    if (inRewind) await agent.inRewind?.(here);
    await here.waitFor(agent.ready, 60_000, 'the agent ready at its prompt');
    // The agent asks for the protocol as it starts: a key typed before that would come as a legacy one
    // (a terminal that never gets the request, as Rewind's did before, sends Shift+Enter as Enter).
    await waitFor(() => keyboard.flags !== 0, 10_000, 'kitty flags pushed to the terminal').catch(() => undefined);
    here.write('first line');
    await here.waitFor(/first line/, 10_000, 'the first line typed');
    const sent = keyboard.encode('shift+enter');
    here.write(sent);
    here.write('second line');
    await here.waitFor(/second line/, 10_000, 'the second line typed');
    const lines = here.lines();
    const first = lines.findIndex((line) => line.includes('first line'));
    const second = lines.findIndex((line) => line.includes('second line'));
    if (inRewind) await escEscAndBack(here, keyboard);
    return { twoRows: first >= 0 && second === first + 1, requests: world.model.requests.filter((request) => request.kind === 'turn').length, sent };
  } finally {
    if (session) await stopTui(session);
    await world.close();
  }
}

/**
 * Esc Esc with each Esc as the terminal now sends it (`CSI 27 u`): Rewind's picker opens, the
 * terminal is told legacy keys while it is open, and once it is closed the agent has its
 * draft and its keyboard modes back.
 */
async function escEscAndBack(session: TermSession, keyboard: OuterKeyboard): Promise<void> {
  const flags = keyboard.flags;
  expect(keyboard.encode('esc')).toBe('\x1b[27u');
  session.write(keyboard.encode('esc'));
  session.write(keyboard.encode('esc'));
  await session.waitFor(/rewind to a checkpoint/, 15_000, 'the picker');
  await waitFor(() => keyboard.flags === 0, 5_000, 'legacy keys while the picker is open');
  session.write(keyboard.encode('esc'));
  await session.waitFor((screen) => !screen.includes('rewind to a checkpoint'), 10_000, 'the picker closed');
  await waitFor(() => keyboard.flags === flags, 5_000, "the agent's flags back");
  await session.waitFor((screen) => /first line\n.*second line/.test(screen), 10_000, 'the draft as it was');
}

describe.each(agents)('Shift+Enter in $name, in a terminal with the kitty keyboard protocol', (agent) => {
  it('makes a newline in the prompt in Rewind, as bare', { timeout: 240_000 }, async () => {
    const bare = await typeTwoLines(agent, false);
    expect(bare, 'bare: the agent asked for the protocol and took Shift+Enter as a newline').toMatchObject({ sent: '\x1b[13;2u', twoRows: true, requests: 0 });
    const inRewind = await typeTwoLines(agent, true);
    expect(inRewind, 'in Rewind').toMatchObject({ sent: '\x1b[13;2u', twoRows: true, requests: 0 });
  });
});
