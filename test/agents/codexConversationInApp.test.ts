// Codex (the pinned release) inside Rewind's app: Esc Esc → the step before the second
// prompt's shell command → `b`: the files back, and Codex started again in the pane on a NEW
// rollout holding the first prompt's exchange only (`codex … resume <id>`).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TermSession } from '../helpers/term.js';
import { startInPty } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';
import { conversationScripts, first, second, third, rewindTo, sendPrompt } from './conversationScript.js';
import { codexSetup, createWorld, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const sentInput = (body: unknown) => JSON.stringify((body as { input?: unknown }).input ?? []);
const ready = /Ask Codex to do anything/;


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
      // Keys Codex gets before it has settled its keyboard are dropped: its composer, then a quiet moment.
      await here.waitFor(ready, 60_000, 'Codex ready');
      await here.waitFor(/agent idle/, 30_000, 'the agent idle at its prompt');
      await sendPrompt(here, first, /Wrote a\./, ready);
      await sendPrompt(here, second, /Made b\./, ready);
      // Codex's TUI writes its rollout late: the step must be in it before its conversation can be cut there.
      const sessions = path.join(world.agentDir, 'codex', 'sessions');
      const rollout = () => (fs.readdirSync(sessions, { recursive: true }) as string[]).filter((file) => file.endsWith('.jsonl')).map((file) => fs.readFileSync(path.join(sessions, file), 'utf8')).join('');
      await waitFor(() => rollout().includes('echo two > b.txt'), 30_000, 'the step in the rollout');
      await rewindTo(here, 'echo two', 'b');
      // The whole notice: either outcome, so that a wrong one fails here with what it said.
      await here.waitFor(/restored the files[^\n]*? and the conversation|started the agent afresh|failed|cannot/, 30_000, 'the restore notice');
      expect(here.lines().at(-1)).toMatch(/restored the files[^\n]*? and the conversation/);
      expect(fs.existsSync(path.join(world.root, 'b.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(world.root, 'a.txt'), 'utf8')).toBe('one\n');
      await here.waitFor(ready, 60_000, 'Codex ready again');
      await here.waitFor(/agent idle/, 30_000, 'the agent idle again');
      const before = world.model.requests.length;
      await sendPrompt(here, third, /Only a is there\./, ready);
      const turn = world.model.requests.slice(before).find((request) => request.kind === 'turn');
      expect(sentInput(turn?.body)).toContain(first);
      expect(sentInput(turn?.body)).not.toContain(second);
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });
});
