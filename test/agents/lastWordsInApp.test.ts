// The real agents' last words after Rewind exits (issue 14, item 1): Codex (the pinned
// release, offline against the fake model) leaves its full screen at exit and prints how to
// resume; those lines must be on the user's terminal once Rewind has exited, as in a bare run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import { select } from './codexDialogs.js';
import { codexSetup, createWorld, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const prompt = 'Say hello';
const answer = 'Hello from the fake model.';

/** One prompt and its answer in Codex, then /quit: the screen once the program in the pty has exited, ids as <ID>. */
async function screenAfterQuit(world: AgentWorld, inRewind: boolean): Promise<string[]> {
  const bare = codexSetup(world).interactive();
  const start = inRewind ? insideRewind(bare, world) : bare;
  const session: TermSession = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, inRewind ? 'rewind' : 'codex');
  try {
    if (inRewind) {
      // Rewind's hooks are not trusted here: what this test looks at comes after them.
      await session.waitFor(/Continue without trusting/, 30_000, 'the hook review dialog');
      await select(session, 'Continue without trusting');
      session.write('\r');
    }
    await session.waitFor(/Ask Codex to do anything/, 30_000, 'the composer');
    session.write(prompt);
    await session.waitFor((screen) => screen.includes(prompt), 5_000, 'the typed prompt');
    session.write('\r');
    await session.waitFor((screen) => screen.includes(answer), 30_000, 'the answer');
    // The turn is over once Codex draws "Worked for …" under the answer. Its "Working" line
    // goes as soon as the answer streams in, before the turn's token usage is counted: a /quit
    // then leaves "Token usage: …" out of what Codex prints at exit.
    await session.waitFor(/Worked for /, 15_000, 'the turn to end');
    session.write('/quit');
    await session.waitFor(/\/quit/, 5_000, 'the typed command');
    session.write('\r');
    const exit = await session.exited;
    expect(exit.exitCode).toBe(0);
    return session.lines().map((line) => line.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<ID>'));
  } catch (error) {
    throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
  } finally {
    await stopTui(session);
  }
}

describe("codex's last words after Rewind exits", () => {
  let world: AgentWorld;
  beforeAll(async () => {
    world = await createWorld((root) => [{ root, steps: [{ text: answer }] }, { root, steps: [{ text: answer }] }]);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('`codex resume <id>` and the rest of what it prints at exit are on the outer screen after /quit, as bare', { timeout: 180_000 }, async () => {
    const bare = await screenAfterQuit(world, false);
    const inRewind = await screenAfterQuit(world, true);
    expect(bare.join('\n')).toMatch(/Token usage: total=\d+.*\nTo continue this session, run:\n {2}codex resume <ID>\n/);
    expect(inRewind).toEqual(bare);
  });
});
