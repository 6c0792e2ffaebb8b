// Gemini CLI (the pinned release) inside Rewind's app: Esc Esc → a row → `b` puts the files
// and the conversation back to that step, and Gemini is started again in the pane, resumed
// (`--resume`) on a NEW session file holding the conversation up to there; `c` does the
// conversation alone. The model's next request proves what Gemini resumed with.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TermSession } from '../helpers/term.js';
import { startInPty } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';
import { conversationScripts as scripts, first, second, third, rewindTo, sendPrompt } from './conversationScript.js';
import { geminiChats, sentContents } from './geminiChats.js';
import { createWorld, geminiSetup, type AgentWorld } from './harness.js';
import { insideRewind } from './inApp.js';
import { stopTui } from './proof.js';

const ready = /Type your message/;



describe('gemini conversation restore in the app', () => {
  let world: AgentWorld;
  let session: TermSession | undefined;
  let chats: ReturnType<typeof geminiChats>;
  beforeAll(async () => {
    world = await createWorld(scripts);
  });
  afterAll(async () => {
    if (session) await stopTui(session);
    await world?.close();
  });

  it('b: files and conversation back to before the second prompt, Gemini resumed in the pane on a new session', { timeout: 240_000 }, async () => {
    const setup = geminiSetup(world);
    const start = insideRewind(setup.interactive(), world);
    const here = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    session = here;
    try {
      await here.waitFor(ready, 60_000, 'Gemini ready');
      await here.waitFor(/agent idle/, 30_000, 'the agent idle at its prompt');
      await sendPrompt(here, first, /Wrote a\./, ready);
      await sendPrompt(here, second, /Made b\./, ready);
      chats = geminiChats(setup);
      const [original = ''] = chats.holding(second);
      const originalBytes = fs.readFileSync(path.join(chats.dir, original));

      await rewindTo(here, 'echo two', 'b');
      await here.waitFor(/restored the files[^\n]*? and the conversation/, 30_000, 'the restore notice');
      await waitFor(() => chats.holding(first).length === 2, 15_000, 'the new session file');
      const [rebuilt = ''] = chats.holding(first).filter((file) => file !== original);
      expect(fs.readFileSync(path.join(chats.dir, rebuilt), 'utf8')).not.toContain(second);
      expect(fs.existsSync(path.join(world.root, 'b.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(world.root, 'a.txt'), 'utf8')).toBe('one\n');
      // The original is never rewritten (Gemini itself may append to it as it is stopped).
      expect(fs.readFileSync(path.join(chats.dir, original)).subarray(0, originalBytes.length).equals(originalBytes)).toBe(true);

      await here.waitFor(ready, 60_000, 'Gemini ready again');
      await here.waitFor(/agent idle/, 30_000, 'the agent idle again');
      const before = world.model.requests.length;
      await sendPrompt(here, third, /Only a is there\./, ready);
      const turn = world.model.requests.slice(before).find((request) => request.kind === 'turn');
      expect(sentContents(turn?.body)).toContain(first);
      expect(sentContents(turn?.body)).toContain('Wrote a.');
      expect(sentContents(turn?.body)).not.toContain(second);
      expect(sentContents(turn?.body)).not.toContain('Made b.');
      // Gemini went on in the new file, and its hooks came back with it: the third prompt was checkpointed under the new session.
      expect(fs.readFileSync(path.join(chats.dir, rebuilt), 'utf8')).toContain(third);
      const records = world.sandbox.open(world.root).list();
      const resumed = records.find((record) => record.label === third);
      expect(resumed?.agentSession).toBe((JSON.parse(fs.readFileSync(path.join(chats.dir, rebuilt), 'utf8').split('\n')[0] ?? '{}') as { sessionId?: string }).sessionId);
      expect(rebuilt.endsWith(`-${resumed?.agentSession?.slice(0, 8)}.jsonl`)).toBe(true);
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });

  it('c: the conversation alone, back to before the first prompt: Gemini starts afresh, the files stay', { timeout: 120_000 }, async () => {
    const here = session as TermSession;
    try {
      const files = fs.readdirSync(world.root).sort();
      const sessionsBefore = fs.readdirSync(chats.dir);
      await rewindTo(here, 'write_file a.txt', 'c');
      await here.waitFor(/started the agent afresh/, 30_000, 'the restore notice');
      await here.waitFor(ready, 60_000, 'Gemini ready again');
      // Gemini writes its fresh session's file (its context, no message of ours) a moment after its prompt shows.
      const fresh = () => fs.readdirSync(chats.dir).filter((file) => !sessionsBefore.includes(file));
      await waitFor(() => fresh().length > 0, 30_000, "the fresh session's file");
      expect(fresh().map((file) => fs.readFileSync(path.join(chats.dir, file), 'utf8')).some((text) => text.includes(first))).toBe(false);
      expect(fs.readdirSync(world.root).sort()).toEqual(files);
      expect(fs.readFileSync(path.join(world.root, 'a.txt'), 'utf8')).toBe('one\n');
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });

  it('f: the files alone: Gemini goes on in its session, no session file is written', { timeout: 60_000 }, async () => {
    const here = session as TermSession;
    try {
      const sessions = fs.readdirSync(chats.dir).sort();
      await rewindTo(here, 'write_file a.txt', 'f');
      // Files only: the notice says nothing of a conversation (b's says "… and the conversation …").
      await here.waitFor(/restored the files to just before “[^”\n]*”: \d+ file\(s\) changed/, 30_000, 'the restore notice');
      expect(fs.existsSync(path.join(world.root, 'a.txt'))).toBe(false);
      expect(fs.readdirSync(chats.dir).sort()).toEqual(sessions);
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${here.text()}`, { cause: error });
    }
  });
});
