// Claude Code (the pinned release) inside Rewind's app: Esc Esc → a row → `b` puts the files
// and the conversation back to that step, and Claude is started again in the pane, resumed
// on a NEW session holding the conversation up to there; `c` does the conversation alone.
// The model's next request proves what Claude resumed with.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TermSession } from '../helpers/term.js';
import { startInPty } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';
import { conversationScripts as scripts, first, second, sentText, third, rewindTo, sendPrompt } from './conversationScript.js';
import { claudeSetup, createWorld, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';





describe('claude conversation restore in the app', () => {
  let world: AgentWorld;
  let session: TermSession | undefined;
  let transcriptDir = '';
  let original = '';
  beforeAll(async () => {
    world = await createWorld(scripts);
  });
  afterAll(async () => {
    if (session) await stopTui(session);
    await world?.close();
  });

  it('b: files and conversation back to before the second prompt, Claude resumed in the pane on a new session', { timeout: 240_000 }, async () => {
    const setup = claudeSetup(world, { hooks: {} });
    const start = insideRewind(setup.interactive(), world);
    const here = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    session = here;
    try {
      await here.waitFor(/^❯/m, 60_000, 'Claude ready');
      await sendPrompt(here, first, /Wrote a\./);
      await sendPrompt(here, second, /Made b\./);
      transcriptDir = path.join(setup.configDirs[0] ?? '', 'projects', fs.readdirSync(path.join(setup.configDirs[0] ?? '', 'projects'))[0] ?? '');
      original = fs.readdirSync(transcriptDir).find((file) => file.endsWith('.jsonl')) ?? '';
      const originalBytes = fs.readFileSync(path.join(transcriptDir, original));

      await rewindTo(here, 'echo two', 'b');
      await here.waitFor(/restored the files[^\n]*? and the conversation/, 30_000, 'the restore notice');
      await waitFor(() => fs.readdirSync(transcriptDir).filter((file) => file.endsWith('.jsonl')).length === 2, 15_000, 'the new session file');
      expect(fs.existsSync(path.join(world.root, 'b.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(world.root, 'a.txt'), 'utf8')).toBe('one\n');
      // The original is never rewritten (Claude itself may append its own closing lines when it is stopped).
      expect(fs.readFileSync(path.join(transcriptDir, original)).subarray(0, originalBytes.length).equals(originalBytes)).toBe(true);

      await here.waitFor(/^❯/m, 60_000, 'Claude ready again');
      const before = world.model.requests.length;
      await sendPrompt(here, third, /Only a is there\./);
      const turn = world.model.requests.slice(before).find((request) => request.kind === 'turn');
      expect(sentText(turn?.body)).toContain(first);
      expect(sentText(turn?.body)).not.toContain(second);
      // Its hooks came back with it: the third prompt was checkpointed under the new session.
      const records = world.sandbox.open(world.root).list();
      const resumed = records.find((record) => record.label === third);
      expect(resumed?.agentSession).toMatch(/^[0-9a-f-]{36}$/);
      expect(`${resumed?.agentSession}.jsonl`).not.toBe(original);
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });

  it('c: the conversation alone, back to before the first prompt: Claude starts afresh, the files stay', { timeout: 120_000 }, async () => {
    const here = session as TermSession;
    try {
      const files = fs.readdirSync(world.root).sort();
      await rewindTo(here, 'Write a.txt', 'c');
      await here.waitFor(/started the agent afresh/, 30_000, 'the restore notice');
      await here.waitFor(/^❯/m, 60_000, 'Claude ready again');
      expect(fs.readdirSync(world.root).sort()).toEqual(files);
      expect(fs.readFileSync(path.join(world.root, 'a.txt'), 'utf8')).toBe('one\n');
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });
});
