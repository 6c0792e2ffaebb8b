// A copy to the clipboard through OSC 52 (issue 30) on a real agent: Gemini CLI's `/copy`
// copies its last answer with OSC 52 when it runs over SSH (or told to by its settings). In
// Rewind the copy reaches the outer terminal as it does bare: the same sequence, the answer in it.
import { describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import type { Script } from './fakeModel/script.js';
import { createWorld, geminiSetup } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';
import { builtAdapter, withAdapter } from './standalone.js';

const prompt = 'Give me the command';
const answer = 'git log --oneline -n 5';
const scripts = (root: string): Script[] => [{ root, steps: [{ text: answer }] }];
const copied = `\x1b]52;c;${Buffer.from(answer).toString('base64')}\x07`;

/** What Gemini wrote to its terminal after `/copy`, bare or in Rewind. */
async function copyOutput(inRewind: boolean): Promise<string> {
  const world = await createWorld(scripts);
  let session: TermSession | undefined;
  try {
    // As over SSH: Gemini then copies through its terminal.
    const start = geminiSetup(world, { env: { SSH_TTY: '/dev/pts/0' } }).interactive(prompt);
    const run = inRewind ? insideRewind(start, world) : withAdapter(start, await builtAdapter('gemini/adapter.js', 'geminiAgent'), world);
    session = startInPty(run.command, run.args, { cwd: run.cwd, env: run.env, cols: 100, rows: inRewind ? 30 : 29 }, inRewind ? 'rewind' : 'gemini');
    const current = session;
    await current.waitFor((screen) => screen.includes(answer), 90_000, 'the answer');
    current.write('/copy');
    // Its command menu is drawn: Enter takes the entry, and runs it once the menu is gone.
    await current.waitFor((screen) => screen.includes('Copy the last result'), 10_000, 'the command menu');
    const copiedNow = () => current.output().includes('\x1b]52;');
    for (let enters = 0; !copiedNow() && enters < 3; enters++) {
      current.write('\r');
      await current.waitFor((screen) => copiedNow() || !screen.includes('Copy the last result'), 15_000, 'the command taken').catch(() => undefined);
    }
    await current.waitFor(copiedNow, 15_000, 'a copy through OSC 52');
    return current.output();
  } finally {
    if (session) await stopTui(session);
    await world.close();
  }
}

describe('gemini /copy over SSH', () => {
  it('copies the answer to the outer terminal\'s clipboard in Rewind, as bare', { timeout: 240_000 }, async () => {
    expect(await copyOutput(false), 'bare').toContain(copied);
    expect(await copyOutput(true), 'in Rewind').toContain(copied);
  });
});
