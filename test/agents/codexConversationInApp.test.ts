// Codex (the pinned release) inside Rewind's app: Esc Esc → the step before the second
// prompt's shell command → `b`: the files back, and Codex started again in the pane on a NEW
// rollout holding the first prompt's exchange only (`codex … resume <id>`).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TermSession } from '../helpers/term.js';
import { startInPty } from '../helpers/term.js';
import { conversationScripts, first, second, third } from './conversationScript.js';
import { codexSetup, createWorld, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const sentInput = (body: unknown) => JSON.stringify((body as { input?: unknown }).input ?? []);
const ready = /Ask Codex to do anything/;

async function prompt(session: TermSession, text: string, answer: RegExp): Promise<void> {
  await session.waitFor(ready, 60_000, 'the composer');
  const before = session.text().split(text).length;
  session.write(text);
  await session.waitFor(() => session.text().split(text).length > before, 10_000, `"${text}" typed`);
  session.write('\r');
  await session.waitFor(answer, 60_000, `the answer to "${text}"`);
  await session.waitFor(/agent idle/, 30_000, 'the agent idle after the answer');
}

describe('codex conversation restore in the app', () => {
  let world: AgentWorld;
  let session: TermSession | undefined;
  beforeAll(async () => {
    world = await createWorld(conversationScripts);
  });
  afterAll(async () => {
    if (session) await stopTui(session);
    await world?.close();
  });

  it('b: files and conversation back to before the second prompt, Codex resumed in the pane', { timeout: 240_000 }, async () => {
    const start = insideRewind(codexSetup(world, { hooks: {}, hookTrust: 'bypass' }).interactive(), world);
    const here = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    session = here;
    try {
      await prompt(here, first, /Wrote a\./);
      await prompt(here, second, /Made b\./);
      here.write('\x1b\x1b');
      await here.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
      here.write('echo two');
      await here.waitFor(/› .*echo two/, 5_000, 'the row selected');
      here.write('\r');
      await here.waitFor(/b {2}restore conversation and files/, 5_000, 'the modes');
      here.write('b');
      await here.waitFor(/resumed the conversation of #\d+/, 30_000, 'the restore notice');
      expect(fs.existsSync(path.join(world.root, 'b.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(world.root, 'a.txt'), 'utf8')).toBe('one\n');
      const before = world.model.requests.length;
      await prompt(here, third, /Only a is there\./);
      const turn = world.model.requests.slice(before).find((request) => request.kind === 'turn');
      expect(sentInput(turn?.body)).toContain(first);
      expect(sentInput(turn?.body)).not.toContain(second);
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });
});
