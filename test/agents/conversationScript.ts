// The conversation the restore tests play: two prompts, each with a tool step, then a third
// that shows what the agent was resumed with; and the steps those tests share.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { builtCli } from '../helpers/restoreKit.js';
import type { TermSession } from '../helpers/term.js';
import type { Script } from './fakeModel/script.js';
import { expect } from 'vitest';
import { runHeadless, type Invocation } from './harness.js';
import type { AgentWorld } from './world.js';

export const first = 'First prompt: write a';
export const second = 'Second prompt: make b';
export const third = 'Third prompt: what is there';
export const conversationScripts = (root: string): Script[] => [
  { prompt: 'First prompt', root, steps: [{ tool: 'write', path: 'a.txt', content: 'one\n' }, { text: 'Wrote a.' }] },
  { prompt: 'Second prompt', root, steps: [{ tool: 'shell', command: 'echo two > b.txt' }, { text: 'Made b.' }] },
  { prompt: 'Third prompt', root, steps: [{ text: 'Only a is there.' }] },
];

/** The text of every message the model was sent in a request's body. */
export const sentText = (body: unknown) => JSON.stringify((body as { messages?: unknown }).messages ?? []);

/** `rewind ...args` (the built CLI) in the world's project, with its sandbox's store and config. */
export function rewindIn(world: AgentWorld, ...args: string[]): SpawnSyncReturns<string> {
  const env = { PATH: process.env.PATH, HOME: world.sandbox.home, REWIND_HOME: world.sandbox.store, REWIND_CONFIG_DIR: world.sandbox.configDir };
  return spawnSync(process.execPath, [builtCli, ...args], { cwd: world.root, env, encoding: 'utf8' });
}

/** Types `text` at the agent's prompt (`ready` on screen first), sends it, waits for `answer` and the agent idle. */
export async function sendPrompt(session: TermSession, text: string, answer: RegExp, ready?: RegExp): Promise<void> {
  if (ready) await session.waitFor(ready, 60_000, 'the agent ready for a prompt');
  const before = session.text().split(text).length;
  session.write(text);
  await session.waitFor(() => session.text().split(text).length > before, 10_000, `"${text}" typed`);
  session.write('\r');
  await session.waitFor(answer, 60_000, `the answer to "${text}"`);
  await session.waitFor(/agent idle/, 30_000, 'the agent idle after the answer');
}

/** Esc Esc, the row whose label matches `filter`, then the mode key. */
export async function rewindTo(session: TermSession, filter: string, mode: 'b' | 'c' | 'f'): Promise<void> {
  session.write('\x1b\x1b');
  await session.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
  session.write(filter);
  await session.waitFor((screen) => new RegExp(`› .*${filter}`).test(screen), 5_000, 'the row selected');
  session.write('\r');
  await session.waitFor(/b {2}restore conversation and files/, 5_000, 'the modes');
  session.write(mode);
}

/**
 * Runs the third prompt in the rebuilt session (`resumed`: the agent's headless invocation
 * that resumes it) and checks what the model was sent: the first exchange, nothing of the
 * second. `sent` reads a request body's messages as the agent's API shapes them.
 */
export async function expectResumedWithFirstExchangeOnly(world: AgentWorld, resumed: Invocation, sent: (body: unknown) => string): Promise<void> {
  const before = world.model.requests.length;
  const three = await runHeadless(resumed);
  expect(three, three.stderr).toMatchObject({ code: 0 });
  expect(three.stdout).toContain('Only a is there.');
  const turn = sent(world.model.requests.slice(before).find((request) => request.kind === 'turn')?.body);
  expect(turn).toContain(first);
  expect(turn).toContain('Wrote a.');
  expect(turn).not.toContain(second);
  expect(turn).not.toContain('Made b.');
}
