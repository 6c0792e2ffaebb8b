// Gemini CLI 0.61's own session cleanup (on, as it is by default) against a session Rewind
// rebuilt, on the pinned release with Rewind's hooks and no app. Gemini resumed in a later
// minute than its session file's name leaves a file of one metadata line with the same 8
// characters; without Rewind, the next start of Gemini deletes it AND the session's own file.
// Here the rebuilt session's file is renamed one minute back first (any resume after the
// minute turns is that case), resumed with a prompt (Rewind's hook removes the leftover), and
// Gemini started afresh: the session is still there, with all that was said in it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationScripts as scripts, first, second, third, rewindIn } from './conversationScript.js';
import { geminiChats } from './geminiChats.js';
import { createWorld, geminiSetup, runHeadless, type AgentSetup, type AgentWorld, type Invocation } from './harness.js';
import { headlessRuns } from './standalone.js';

/** Gemini's name for a session file made at `when` (`session-<UTC minute>-<first 8 of the id>.jsonl`). */
const sessionFileName = (session: string, when: Date) => `session-${when.toISOString().slice(0, 16).replace(/:/g, '-')}-${session.slice(0, 8)}.jsonl`;

describe("Gemini's session cleanup and a resumed session", () => {
  let world: AgentWorld;
  let setup: AgentSetup;
  let run: (prompt: string, resume?: string) => Invocation;

  beforeAll(async () => {
    world = await createWorld(scripts);
    setup = geminiSetup(world, { sessionCleanup: true });
    run = await headlessRuns(setup, world, 'gemini/adapter.js', 'geminiAgent');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('keeps a rebuilt session resumed in a later minute through the next start of Gemini', async () => {
    const one = await runHeadless(run(first));
    expect(one, one.stderr).toMatchObject({ code: 0 });
    const chats = geminiChats(setup);
    const original = (JSON.parse(fs.readFileSync(path.join(chats.dir, chats.holding(first)[0] ?? ''), 'utf8').split('\n')[0] ?? '{}') as { sessionId: string }).sessionId;
    const two = await runHeadless(run(second, original));
    expect(two, two.stderr).toMatchObject({ code: 0 });

    const beforeShell = world.sandbox.open(world.root).list().find((record) => record.label === 'run_shell_command echo two > b.txt');
    const restored = rewindIn(world, 'restore', String(beforeShell?.id), '--conversation', '--json');
    expect(restored.status, restored.stderr).toBe(0);
    const { session, file } = (JSON.parse(restored.stdout) as { conversation: { session: string; file: string } }).conversation;
    const named = path.join(chats.dir, sessionFileName(session, new Date(Date.now() - 60_000)));
    fs.renameSync(file, named);
    const ofSession = () => fs.readdirSync(chats.dir).filter((name) => name.endsWith(`-${session.slice(0, 8)}.jsonl`));

    const three = await runHeadless(run(third, session));
    expect(three, three.stderr).toMatchObject({ code: 0 });
    expect(three.stdout).toContain('Only a is there.');
    // Gemini went on in the session's own file; what its start left beside it is gone.
    expect(ofSession()).toEqual([path.basename(named)]);
    const said = fs.readFileSync(named, 'utf8');
    expect(said).toContain(first);
    expect(said).toContain(third);

    // A new session: Gemini's cleanup runs as it starts.
    const four = await runHeadless(run(third));
    expect(four, four.stderr).toMatchObject({ code: 0 });
    expect(ofSession()).toEqual([path.basename(named)]);
    expect(fs.readFileSync(named, 'utf8')).toBe(said);
  }, 180_000);
});
