// Which transcript a checkpoint keeps (issue 23, item 2): only the agent's own, of the
// session the payload names, where the agent keeps its transcripts (its config folder as
// the environment says), a regular file of the user's reached by no link. Anything else a
// payload names is not read: one line says why, and nothing goes into the store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversation/conversationStore.js';
import { captureConversation } from '../../src/conversation/conversationRestore.js';
import { rewindGeminiHome } from '../../src/agents/gemini/home.js';
import type { ConversationPoint } from '../../src/shared/conversation.js';

let base = '';
let store: ConversationStore;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-own-transcript-')));
  store = new ConversationStore(path.join(base, 'store', 'conv'));
  env = { HOME: path.join(base, 'home'), CLAUDE_CONFIG_DIR: path.join(base, 'claude'), CODEX_HOME: path.join(base, 'codex'), REWIND_HOME: path.join(base, 'rewind') };
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const session = '530cd378-68ba-4a2a-a013-c740111b5430';
const content = `{"type":"user","sessionId":"${session}","message":{"role":"user","content":"hi"}}\n`;
function file(at: string, text = content): string {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.writeFileSync(at, text, { mode: 0o600 });
  return at;
}
const claudeOwn = () => path.join(base, 'claude', 'projects', '-work-p', `${session}.jsonl`);
const geminiOwn = (gemini = path.join(base, 'home', '.gemini')) => path.join(gemini, 'tmp', 'p', 'chats', `session-2026-12-01T23-06-${session.slice(0, 8)}.jsonl`);
const codexOwn = () => path.join(base, 'codex', 'sessions', '2026', '12', '01', `rollout-2026-12-01T23-22-56-${session}.jsonl`);

/** A capture as a hook makes it: what it kept (or not), and what it said. */
function capture(agent: string, point: ConversationPoint) {
  const said: string[] = [];
  const ref = captureConversation(store, agent, point, (line) => said.push(line), env);
  return { ref, said, bytes: ref ? store.bytes(ref).toString() : undefined };
}
function refused(agent: string, point: ConversationPoint, why: RegExp): void {
  const { ref, said } = capture(agent, point);
  expect(ref, point.transcript).toBeUndefined();
  expect(said, point.transcript).toHaveLength(1);
  expect(said[0]).not.toContain('\n');
  expect(said[0]).toMatch(/^the conversation could not be kept with this checkpoint \(its files are\): /);
  expect(said[0]).toMatch(why);
}
const chunks = () => (fs.existsSync(path.join(store.dir, 'chunks')) ? fs.readdirSync(path.join(store.dir, 'chunks')) : []);

describe('the transcript a hook payload names', () => {
  it("is kept when it is the agent's own, for each agent, where its environment says it keeps them", () => {
    expect(capture('claude', { transcript: file(claudeOwn()), session })).toMatchObject({ said: [], bytes: content });
    expect(capture('codex', { transcript: file(codexOwn()), session })).toMatchObject({ said: [], bytes: content });
    expect(capture('gemini', { transcript: file(geminiOwn()), session })).toMatchObject({ said: [], bytes: content });
    // Gemini run by Rewind: its home is Rewind's, whose tmp/ is a link to the user's own.
    const ours = path.join(rewindGeminiHome(env, path.join(base, 'home', '.gemini')), '.gemini');
    fs.mkdirSync(ours, { recursive: true });
    fs.symlinkSync(path.join(base, 'home', '.gemini', 'tmp'), path.join(ours, 'tmp'));
    const throughLink = geminiOwn(ours);
    expect(capture('gemini', { transcript: throughLink, session })).toMatchObject({ said: [], bytes: content });
    env = { ...env, GEMINI_CLI_HOME: path.dirname(ours) };
    expect(capture('gemini', { transcript: throughLink, session })).toMatchObject({ said: [], bytes: content });
    // Claude's default folder (no CLAUDE_CONFIG_DIR): ~/.claude.
    env = { HOME: path.join(base, 'home') };
    const home = file(path.join(base, 'home', '.claude', 'projects', '-p', `${session}.jsonl`));
    expect(capture('claude', { transcript: home, session })).toMatchObject({ said: [], bytes: content });
    // The demo agent's, in the folder `rewind demo` gives it.
    env = { REWIND_DEMO_CONFIG_DIR: path.join(base, 'demo') };
    expect(capture('demo', { transcript: file(path.join(base, 'demo', 'projects', '-p', `${session}.jsonl`)), session })).toMatchObject({ said: [], bytes: content });
  });

  it("is not read when it is anywhere else: a system file, another folder, another session's name", () => {
    for (const agent of ['claude', 'gemini', 'codex']) {
      refused(agent, { transcript: '/etc/shadow', session }, /^.*\/etc\/shadow is not in the agent's transcript folder \(.*\): not read$/);
      // Named as the session's own, but outside the agent's folder.
      refused(agent, { transcript: file(path.join(base, 'elsewhere', `rollout-x-${session}.jsonl`)), session }, /is not in the agent's transcript folder/);
    }
    // In the folder, but not the session's (nor any session's) file.
    refused('claude', { transcript: file(path.join(base, 'claude', 'projects', '-p', 'other.jsonl')), session }, /is not named as session 530cd378-.*'s transcript/);
    refused('claude', { transcript: file(path.join(base, 'claude', 'projects', `${session}.jsonl`)), session }, /is not named as session/);
    refused('claude', { transcript: claudeOwn() }, /is named by a payload that gives no session id/);
    refused('gemini', { transcript: file(path.join(base, 'home', '.gemini', 'tmp', 'p', 'chats', 'session-2026-12-01T23-06-ffffffff.jsonl')), session }, /is not named as session/);
    refused('gemini', { transcript: file(path.join(base, 'home', '.gemini', 'tmp', 'p', 'settings.json')), session }, /is not named as session/);
    refused('codex', { transcript: file(path.join(base, 'codex', 'sessions', '2026', `${session}.jsonl`)), session }, /is not named as session/);
    // An agent that does not say where it keeps transcripts keeps none.
    refused('generic', { transcript: file(claudeOwn()), session }, /rewind does not know where generic keeps its transcripts/);
    expect(chunks()).toEqual([]);
  });

  it('is not read through a link: the file itself, or a folder of it pointing out of the agent’s folder', () => {
    const own = claudeOwn();
    fs.mkdirSync(path.dirname(own), { recursive: true });
    fs.symlinkSync('/etc/shadow', own);
    refused('claude', { transcript: own, session }, /is a symbolic link: not read$/);
    // A link to the session's own file, from its own folder, is a link all the same.
    fs.rmSync(own);
    const real = file(path.join(path.dirname(own), 'real.jsonl'));
    fs.symlinkSync(real, own);
    refused('claude', { transcript: own, session }, /is a symbolic link: not read$/);
    // A project folder that is a link to /etc: its real path is not in the agent's folder.
    fs.symlinkSync('/etc', path.join(base, 'claude', 'projects', '-etc'));
    refused('claude', { transcript: path.join(base, 'claude', 'projects', '-etc', 'shadow'), session }, /is not in the agent's transcript folder/);
    fs.mkdirSync(path.join(base, 'codex', 'sessions'), { recursive: true });
    fs.symlinkSync('/etc', path.join(base, 'codex', 'sessions', '2026'));
    refused('codex', { transcript: path.join(base, 'codex', 'sessions', '2026', `rollout-${session}.jsonl`), session }, /is not in the agent's transcript folder/);
    expect(chunks()).toEqual([]);
  });

  it("is not read when it is not a regular file, or is another user's (Rewind runs as root here)", () => {
    const own = claudeOwn();
    fs.mkdirSync(own, { recursive: true });
    refused('claude', { transcript: own, session }, /is a folder: not read$/);
    fs.rmSync(own, { recursive: true });
    file(own);
    if (process.geteuid?.() === 0) {
      fs.chownSync(own, 65534, 65534);
      refused('claude', { transcript: own, session }, /belongs to another user \(uid 65534\): not read$/);
    } else {
      // Not root: a file of another user's cannot be made here; the owner check is the same code.
      expect(fs.statSync(own).uid).toBe(process.geteuid?.());
    }
    expect(chunks()).toEqual([]);
  });
});
