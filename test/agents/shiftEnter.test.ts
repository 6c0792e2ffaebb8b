// Shift+Enter on the real agents (issue 30): in a terminal that speaks the kitty keyboard
// protocol (the test terminal plays kitty: it keeps the flags a program pushes, answers
// `CSI ? u` and XTVERSION, and sends Shift+Enter as `CSI 13 ; 2 u` once asked to), Claude Code
// and Codex take Shift+Enter as a newline in their prompt; Claude Code also in one with xterm's
// modifyOtherKeys (WezTerm as it ships: `CSI 27 ; 2 ; 13 ~`). Inside Rewind they must too, as
// bare: the agent's keyboard request reaches the outer terminal, the key comes back encoded
// and reaches the agent as sent; Esc Esc, each Esc then sent as `CSI 27 u`, still opens the picker.
import { describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import { OuterKeyboard, type OuterKeyboardOptions } from '../helpers/outerKeyboard.js';
import type { Script } from './fakeModel/script.js';
import { claudeSetup, codexSetup, createWorld, type AgentSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';
import { waitFor } from '../helpers/waitFor.js';
import { trustAll } from './codexDialogs.js';

const scripts = (root: string): Script[] => [{ root, steps: [{ text: 'Noted.' }] }];

/** A terminal the test plays: its keyboard, what it sets in its programs' environment (Claude Code decides by it), what it sends for Shift+Enter once asked. */
interface Terminal {
  keyboard: OuterKeyboardOptions;
  env: Record<string, string>;
  shiftEnter: string;
  /** Whether the program's request for more than legacy keys reached it. */
  asked(keyboard: OuterKeyboard): boolean;
}

const kitty: Terminal = { keyboard: { kitty: true, modifyOtherKeys: false, version: 'kitty(0.35.2)' }, env: { KITTY_WINDOW_ID: '1' }, shiftEnter: '\x1b[13;2u', asked: (keyboard) => keyboard.flags !== 0 };
/** WezTerm as it ships (its kitty protocol off): xterm's modifyOtherKeys. */
const wezterm: Terminal = { keyboard: { kitty: false, modifyOtherKeys: true }, env: { TERM_PROGRAM: 'WezTerm' }, shiftEnter: '\x1b[27;2;13~', asked: (keyboard) => keyboard.modifyOtherKeys >= 2 };

interface AgentCase {
  name: string;
  terminal: Terminal;
  setup: (world: AgentWorld, env: Record<string, string>) => AgentSetup;
  /** The agent's prompt, ready for keys. */
  ready: RegExp;
  /** What the agent asks first inside Rewind, answered (Codex reviews the hooks Rewind adds). */
  inRewind?(session: TermSession): Promise<void>;
}

const agents: AgentCase[] = [
  { name: 'claude in kitty', terminal: kitty, setup: (world, env) => claudeSetup(world, { env }), ready: /^❯/m },
  { name: 'claude in WezTerm (modifyOtherKeys)', terminal: wezterm, setup: (world, env) => claudeSetup(world, { env }), ready: /^❯/m },
  { name: 'codex in kitty', terminal: kitty, setup: (world, env) => codexSetup(world, { env }), ready: /Ask Codex to do anything/, inRewind: trustAll },
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
  const keyboard = new OuterKeyboard(agent.terminal.keyboard);
  let session: TermSession | undefined;
  try {
    const start = agent.setup(world, agent.terminal.env).interactive();
    const run = inRewind ? insideRewind(start, world) : start;
    session = startInPty(run.command, run.args, { cwd: run.cwd, env: run.env, cols: 100, rows: inRewind ? 30 : 29, keyboard }, inRewind ? 'rewind' : agent.name);
    const here = session;
    if (inRewind) await agent.inRewind?.(here);
    await here.waitFor(agent.ready, 60_000, 'the agent ready at its prompt');
    // The agent asks for the protocol as it starts: a key typed before that would come as a legacy one
    // (a terminal that never gets the request, as Rewind's did before, sends Shift+Enter as Enter).
    await waitFor(() => agent.terminal.asked(keyboard), 10_000, 'the keyboard request at the terminal').catch(() => undefined);
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
  const { flags, modifyOtherKeys } = keyboard;
  session.write(keyboard.encode('esc'));
  session.write(keyboard.encode('esc'));
  await session.waitFor(/rewind to a checkpoint/, 15_000, 'the picker');
  await waitFor(() => keyboard.flags === 0 && keyboard.modifyOtherKeys === 0, 5_000, 'legacy keys while the picker is open');
  session.write(keyboard.encode('esc'));
  await session.waitFor((screen) => !screen.includes('rewind to a checkpoint'), 10_000, 'the picker closed');
  await waitFor(() => keyboard.flags === flags && keyboard.modifyOtherKeys === modifyOtherKeys, 5_000, "the agent's keyboard modes back");
  await session.waitFor((screen) => /first line\n.*second line/.test(screen), 10_000, 'the draft as it was');
}

describe.each(agents)('Shift+Enter in $name', (agent) => {
  it('makes a newline in the prompt in Rewind, as bare', { timeout: 240_000 }, async () => {
    const expected = { sent: agent.terminal.shiftEnter, twoRows: true, requests: 0 };
    expect(await typeTwoLines(agent, false), 'bare: the agent asked for the keys and took Shift+Enter as a newline').toMatchObject(expected);
    expect(await typeTwoLines(agent, true), 'in Rewind').toMatchObject(expected);
  });
});
