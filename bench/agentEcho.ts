// Keystroke echo in the real agents' TUIs (Claude Code, Gemini CLI, Codex), idle at their
// prompt, offline against the fake model as in test/agents: a key written to the terminal,
// timed until it is on the screen as a terminal emulator (@xterm/headless) reads it. Bare
// (the agent in the pty itself) and through Rewind (`rewind -- <agent>`, the built CLI),
// sessions interleaved so that both see the same load.
import { claudeSetup, codexSetup, createWorld, geminiSetup, type AgentSetup, type AgentWorld, type Invocation } from '../test/agents/harness.js';
import { startInPty, type TermSession } from '../test/helpers/term.js';
import { builtCli, requireBuiltCli } from '../test/helpers/restoreKit.js';
import { median, percentile, round } from './lib.js';

export type AgentName = 'claude' | 'gemini' | 'codex';

interface Agent {
  name: AgentName;
  setup(world: AgentWorld): AgentSetup;
  /** What the agent shows once its prompt takes keys. */
  ready: RegExp;
}

const agents: Agent[] = [
  { name: 'claude', setup: (world) => claudeSetup(world, { hooks: {} }), ready: /^❯/m },
  { name: 'gemini', setup: (world) => geminiSetup(world), ready: /Type your message/ },
  { name: 'codex', setup: (world) => codexSetup(world, { hooks: {}, hookTrust: 'bypass' }), ready: /Ask Codex to do anything/ },
];

export interface AgentEchoRow {
  agent: AgentName;
  bare: { median: number; p90: number };
  rewind: { median: number; p90: number };
  /** Rewind's median minus the bare median (the target: at most 10 ms). */
  differenceMs: number;
  /** Keys timed in each of the two ways. */
  keys: number;
  sessions: number;
  /** The pause between a key's echo and the next key. */
  gapMs: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The agent's interactive invocation inside the built Rewind (the jail outermost), as test/agents/inApp.ts does. */
function insideRewind(start: Invocation, world: AgentWorld): Invocation {
  requireBuiltCli();
  const split = start.args.lastIndexOf('--');
  if (start.command !== 'unshare' || split < 0) throw new Error(`not an offline invocation: ${start.command} ${start.args.join(' ')}`);
  const args = [...start.args.slice(0, split + 1), process.execPath, builtCli, '--', ...start.args.slice(split + 1)];
  return { ...start, args, env: { ...start.env, REWIND_HOME: world.sandbox.store, REWIND_CONFIG_DIR: world.sandbox.configDir } };
}

async function stop(session: TermSession): Promise<void> {
  session.hangUp();
  const exited = await Promise.race([session.exited.then(() => true), sleep(5_000).then(() => false)]);
  if (!exited) {
    try {
      process.kill(-session.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
    await Promise.race([session.exited, sleep(2_000)]);
  }
  session.close();
}

/** Resolves once the screen has not changed for `quietMs` (bounded by `maxMs`). */
async function settled(session: TermSession, quietMs: number, maxMs = 10_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = session.text();
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < deadline) {
    await sleep(20);
    const now = session.text();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/** Time from writing `key` until `draft` (which ends with it) is on the screen. */
function timeEcho(session: TermSession, key: string, draft: string): Promise<number> {
  const start = performance.now();
  const seen = session.waitFor((screen) => screen.includes(draft), 5_000, `"${draft}" echoed`).then(() => performance.now() - start);
  session.write(key);
  return seen;
}

/**
 * One session of the agent (bare or inside Rewind): ready and quiet at its prompt, then
 * `keys` letters typed in rounds of ten after an untimed "zq" (so that what is timed is a
 * text found nowhere else on the screen), each key once the previous one is on the screen
 * and `gap` ms have passed; Ctrl-U clears the draft between rounds.
 */
async function session(agent: Agent, world: AgentWorld, how: 'bare' | 'rewind', keys: number, gap: () => number): Promise<number[]> {
  const start = agent.setup(world).interactive();
  const run = how === 'rewind' ? insideRewind(start, world) : start;
  const term = startInPty(run.command, run.args, { cwd: run.cwd, env: run.env, cols: 110, rows: 32 }, `${agent.name} (${how})`);
  const times: number[] = [];
  try {
    await term.waitFor(agent.ready, 60_000, `${agent.name} ready at its prompt`);
    if (how === 'rewind') await term.waitFor(/agent idle/, 30_000, 'the agent idle');
    // Past the start-up (Rewind loads Ink once the agent is quiet, at the latest 3 s after start).
    await sleep(3_000);
    await settled(term, 1_000);
    const letters = 'abcdefghijklmnoprstuvwxy';
    while (times.length < keys) {
      let draft = 'zq';
      term.write(draft);
      await term.waitFor((screen) => screen.includes(draft), 10_000, 'the round to start');
      await settled(term, 500);
      for (let i = 0; i < 10 && times.length < keys; i++) {
        const key = letters[(times.length + i * 7) % letters.length] ?? 'a';
        draft += key;
        times.push(await timeEcho(term, key, draft));
        await sleep(gap());
      }
      term.write('\x15');
      await term.waitFor((screen) => !screen.includes('zq'), 10_000, 'the draft cleared');
      await settled(term, 500);
    }
  } catch (error) {
    throw new Error(`${String(error)}\nscreen:\n${term.text()}`, { cause: error });
  } finally {
    await stop(term);
  }
  return times;
}

const stats = (values: number[]) => ({ median: round(median(values)), p90: round(percentile(values, 0.9)) });

/**
 * Echo latency per agent: `sessions` sessions bare and as many inside Rewind, interleaved,
 * `keys` keys each, the next key 100-200 ms after the previous echo (a typist's pace).
 */
export async function benchAgentEcho(sessions: number, keys = 30, only: readonly AgentName[] = agents.map((agent) => agent.name)): Promise<AgentEchoRow[]> {
  const gap = () => 100 + Math.random() * 100;
  const rows: AgentEchoRow[] = [];
  for (const agent of agents.filter((candidate) => only.includes(candidate.name))) {
    const world = await createWorld((root) => [{ root, steps: [{ text: 'Hello.' }] }]);
    const times = { bare: [] as number[], rewind: [] as number[] };
    try {
      for (let s = 0; s < sessions; s++) {
        // Interleaved, the order alternating: neither way always runs first.
        const order: ('bare' | 'rewind')[] = s % 2 === 0 ? ['bare', 'rewind'] : ['rewind', 'bare'];
        for (const how of order) {
          process.stderr.write(`  ${agent.name}, ${how}, session ${s + 1}/${sessions}…\n`);
          times[how].push(...(await session(agent, world, how, keys, gap)));
        }
      }
    } finally {
      await world.close();
    }
    const bare = stats(times.bare);
    const rewind = stats(times.rewind);
    rows.push({ agent: agent.name, bare, rewind, differenceMs: round(rewind.median - bare.median), keys: times.bare.length, sessions, gapMs: '100-200' });
  }
  return rows;
}
