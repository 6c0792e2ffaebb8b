// Colour queries on the real agents (issue 30): Gemini CLI and Codex ask the terminal for its
// background (OSC 11; Codex its foreground too, OSC 10) and colour their screen by it. Inside
// Rewind the pane reports the outer terminal's colours (asked as Rewind starts), so an agent
// draws the same colours as bare in the same terminal: with a light terminal and with a dark one.
import { describe, expect, it } from 'vitest';
import { startInPty, type PtyOptions, type TermSession } from '../helpers/term.js';
import { waitForQuiet } from '../helpers/waitFor.js';
import type { Script } from './fakeModel/script.js';
import { codexSetup, createWorld, geminiSetup, type AgentSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';
import { builtAdapter, withAdapter } from './standalone.js';
import { trustAll } from './codexDialogs.js';

const prompt = 'Check the theme';
const lastLine = 'THEME CHECK DONE';
const scripts = (root: string): Script[] => [{ root, steps: [{ text: `The theme is fine.\n\n${lastLine}` }] }];
const terminals = {
  light: { foreground: 'rgb:0000/0000/0000', background: 'rgb:ffff/ffff/ffff' },
  dark: { foreground: 'rgb:e5e5/e5e5/e5e5', background: 'rgb:0000/0000/0000' },
};
const cols = 100;
const rows = 30;

interface AgentCase {
  name: string;
  setup: (world: AgentWorld) => AgentSetup;
  adapter: [file: string, name: string];
  /** The prompt on the command line (else `drive` types it). */
  promptAsArgument: boolean;
  drive?(session: TermSession): Promise<void>;
  /** Rows whose colours the agent picks at random each run (Codex's thread title). */
  random?: RegExp;
}

const agents: AgentCase[] = [
  { name: 'gemini', setup: (world) => geminiSetup(world), adapter: ['gemini/adapter.js', 'geminiAgent'], promptAsArgument: true },
  {
    name: 'codex',
    setup: (world) => codexSetup(world),
    adapter: ['codex/adapter.js', 'codexAgent'],
    promptAsArgument: false,
    drive: async (session) => {
      await trustAll(session);
      session.write(prompt);
      await session.waitFor((screen) => screen.includes(prompt), 5_000, 'the typed prompt');
      session.write('\r');
    },
    random: / · Check the theme$/,
  },
];

/** Each colour pair (foreground/background) drawn on the agent's rows, sorted: what its theme looks like. */
function coloursDrawn(session: TermSession, agentRows: number, random: RegExp | undefined): string[] {
  const lines = session.lines();
  const seen = new Set<string>();
  session.cells().slice(0, agentRows).forEach((row, y) => {
    if (random?.test(lines[y] ?? '')) return;
    for (const cell of row) if (cell.chars.trim() !== '' || cell.bg !== 'default') seen.add(`${cell.fg}/${cell.bg}`);
  });
  return [...seen].sort();
}

async function run(agent: AgentCase, colours: PtyOptions['colours'], inRewind: boolean): Promise<string[]> {
  const world = await createWorld(scripts);
  let session: TermSession | undefined;
  try {
    const start = agent.setup(world).interactive(agent.promptAsArgument ? prompt : undefined);
    // Bare with Rewind's hooks, as `rewind --` adds them: the same screens but for the colours.
    const invocation = inRewind ? insideRewind(start, world) : withAdapter(start, await builtAdapter(...agent.adapter), world);
    const height = inRewind ? rows : rows - 1;
    session = startInPty(invocation.command, invocation.args, { cwd: invocation.cwd, env: invocation.env, cols, rows: height, colours }, inRewind ? 'rewind' : agent.name);
    const current = session;
    await agent.drive?.(current);
    await current.waitFor((screen) => screen.includes(lastLine), 90_000, 'the answer');
    await waitForQuiet(() => current.lines().slice(0, rows - 1).join('\n'), 1_000, 15_000, 'the screen to settle').catch(() => undefined);
    return coloursDrawn(current, rows - 1, agent.random);
  } finally {
    if (session) await stopTui(session);
    await world.close();
  }
}

describe.each(agents)('$name with a light and a dark terminal', (agent) => {
  it('draws the same colours in Rewind as bare, and a light terminal\'s differ from a dark one\'s', { timeout: 300_000 }, async () => {
    const bare = { light: await run(agent, terminals.light, false), dark: await run(agent, terminals.dark, false) };
    expect(bare.light, 'the agent colours its screen by the terminal\'s background').not.toEqual(bare.dark);
    expect(await run(agent, terminals.light, true), 'light terminal').toEqual(bare.light);
    expect(await run(agent, terminals.dark, true), 'dark terminal').toEqual(bare.dark);
  });
});
