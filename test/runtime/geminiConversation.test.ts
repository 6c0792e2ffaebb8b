// Gemini CLI's conversation support, on session files the pinned release wrote (captured at
// its hook calls, test/fixtures/gemini-sessions/) and on variants of them: where the cut
// goes, what the new session's records say, and the command line that resumes it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiAgent, geminiHookEvent } from '../../src/agents/gemini/adapter.js';
import { geminiConversation, geminiSessionFile } from '../../src/agents/gemini/conversation.js';
import { geminiResumeArgs } from '../../src/agents/gemini/resume.js';
import { cutGeminiSession as cutGeminiTranscript, SessionUnusable } from '../../src/agents/gemini/transcript.js';
import { inMemory, rebuiltFrom } from '../helpers/transcriptBytes.js';

const cutGeminiSession = inMemory(cutGeminiTranscript);
import { repoRoot } from '../helpers/restoreKit.js';

const session = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const fixture = (name: string) => fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'gemini-sessions', name));
const lines = (bytes: Buffer) => bytes.toString('utf8').split('\n').slice(0, -1);
type Rec = Record<string, unknown> & { $set?: Record<string, unknown> };
const records = (bytes: Buffer) => lines(bytes).map((line) => JSON.parse(line) as Rec);
const indexOfText = (bytes: Buffer, text: string) => lines(bytes).findIndex((line) => line.includes(`"text":"${text}`));
const idOf = (bytes: Buffer, text: string) => (records(bytes)[indexOfText(bytes, text)] as { id: string }).id;

/** The captured lines with the session renamed where a record names it: what a cut must keep of them. */
function expectKept(cut: Buffer, captured: Buffer, count: number): void {
  const want = lines(captured).slice(0, count);
  const got = lines(cut);
  expect(got).toHaveLength(count);
  got.forEach((line, index) => {
    const before = JSON.parse(want[index] as string) as Rec;
    if (typeof before.sessionId === 'string') expect(JSON.parse(line)).toEqual({ ...before, sessionId: session });
    else if (typeof before.$set?.sessionId === 'string') expect(JSON.parse(line)).toEqual({ $set: { ...before.$set, sessionId: session } });
    else expect(line).toBe(want[index]);
  });
}

describe("cutting Gemini CLI's session file", () => {
  it('inside the first turn: nothing comes before its prompt, the agent starts afresh', () => {
    const cut = cutGeminiSession(fixture('two-prompts.BeforeTool-1.jsonl'), { inTurn: true }, session);
    expect(cut).toEqual({ content: Buffer.alloc(0), messages: 0 });
  });

  it("before a prompt: every complete line, each record naming the session naming the new one (Gemini's resume wrote a $set of it)", () => {
    const captured = fixture('two-prompts.BeforeAgent-2.jsonl');
    const cut = cutGeminiSession(captured, {}, session);
    expectKept(cut.content, captured, lines(captured).length);
    expect(records(cut.content).filter((record) => record.sessionId !== undefined || record.$set?.sessionId !== undefined)).toHaveLength(2);
    // The first prompt, the call, its result (twice, as Gemini's own resume wrote the history back), the answer.
    expect(cut.messages).toBe(5);
  });

  it("inside the second turn: the lines before the one where its prompt appeared, none of that turn's (the call's reply is already there)", () => {
    for (const name of ['two-prompts.BeforeTool-2.jsonl', 'two-prompts.final.jsonl']) {
      const captured = fixture(name);
      const cut = cutGeminiSession(captured, { inTurn: true }, session);
      expectKept(cut.content, captured, indexOfText(captured, 'Second prompt'));
      expect(cut.content.toString()).not.toContain('Second prompt');
      expect(cut.content.toString()).toContain('Wrote a.');
      expect(cut.messages).toBe(5);
    }
  });

  it('inside a turn of three tool calls: back to before its prompt, whichever call it is', () => {
    const captured = fixture('three-steps.BeforeTool-3.jsonl');
    expect(cutGeminiSession(captured, { inTurn: true }, session).messages).toBe(0);
    // The same turn after a first exchange: the cut keeps that exchange whole.
    const earlier = fixture('two-prompts.BeforeAgent-2.jsonl');
    const turn = lines(captured).slice(indexOfText(captured, 'Write the notes'));
    const both = Buffer.from([...lines(earlier), ...turn].map((line) => `${line}\n`).join(''));
    const cut = cutGeminiSession(both, { inTurn: true }, session);
    expectKept(cut.content, both, lines(earlier).length);
  });

  it('drops a half-written last line', () => {
    const captured = fixture('two-prompts.BeforeAgent-2.jsonl');
    const half = captured.subarray(0, captured.length - 40);
    const cut = cutGeminiSession(half, {}, session);
    expectKept(cut.content, captured, lines(captured).length - 1);
  });

  it("follows Gemini's own /rewind: a prompt it took back is not the turn's, and stays taken back", () => {
    const captured = fixture('two-prompts.final.jsonl');
    const again = JSON.stringify({ id: 'again-1', timestamp: '2026-12-02T04:09:00.000Z', type: 'user', content: [{ text: 'Second prompt, sent again' }] });
    const reply = JSON.stringify({ id: 'again-2', timestamp: '2026-12-02T04:09:00.100Z', type: 'gemini', content: '' });
    const rewound = Buffer.concat([captured, Buffer.from(`${JSON.stringify({ $rewindTo: idOf(captured, 'Second prompt') })}\n${again}\n${reply}\n`)]);
    const cut = cutGeminiSession(rewound, { inTurn: true }, session);
    expectKept(cut.content, rewound, lines(captured).length + 1);
    expect(cut.messages).toBe(5);
    expect(cut.content.toString()).not.toContain('sent again');
  });

  it('cuts before the prompt even when Gemini later rewrote the history (a $set of messages, as compression does)', () => {
    const captured = fixture('two-prompts.BeforeTool-2.jsonl');
    const all = records(captured);
    const prompt = all[indexOfText(captured, 'Second prompt')];
    const rewritten = Buffer.concat([captured, Buffer.from(`${JSON.stringify({ $set: { messages: [{ id: 'summary', type: 'user', content: [{ text: 'A summary.' }] }, prompt] } })}\n`)]);
    const cut = cutGeminiSession(rewritten, { inTurn: true }, session);
    expectKept(cut.content, rewritten, indexOfText(captured, 'Second prompt'));
  });

  it('skips a line that is not JSON as Gemini does, keeping its bytes', () => {
    const captured = fixture('two-prompts.BeforeAgent-2.jsonl');
    const text = lines(captured);
    text.splice(3, 0, '{"id": "broken');
    const damaged = Buffer.from(text.map((line) => `${line}\n`).join(''));
    const cut = cutGeminiSession(damaged, {}, session);
    expect(lines(cut.content)[3]).toBe('{"id": "broken');
    expect(cut.messages).toBe(5);
  });

  it("refuses a file that is no JSONL session, and a subagent's session", () => {
    expect(() => cutGeminiSession(Buffer.from('{\n  "sessionId": "x",\n  "messages": []\n}\n'), {}, session)).toThrow(SessionUnusable);
    const captured = fixture('two-prompts.BeforeAgent-2.jsonl');
    const [meta = '', ...rest] = lines(captured);
    const subagent = Buffer.from([JSON.stringify({ ...(JSON.parse(meta) as Rec), kind: 'subagent' }), ...rest].map((line) => `${line}\n`).join(''));
    expect(() => cutGeminiSession(subagent, {}, session)).toThrow(/subagent/);
  });

  it('rebuilds a new file beside the original, named as Gemini names its own, and says there is no session when nothing is left', () => {
    const transcript = '/home/u/.gemini/tmp/project/chats/session-2026-12-02T04-07-170bc34a.jsonl';
    const rebuilt = rebuiltFrom(geminiConversation, fixture('two-prompts.final.jsonl'), { transcript, inTurn: true });
    expect(path.dirname(rebuilt.file)).toBe(path.dirname(transcript));
    expect(path.basename(rebuilt.file)).toMatch(new RegExp(`^session-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-${(rebuilt.session ?? '').slice(0, 8)}\\.jsonl$`));
    expect((records(rebuilt.content)[0] as Rec).sessionId).toBe(rebuilt.session);
    expect(rebuiltFrom(geminiConversation, fixture('two-prompts.BeforeTool-1.jsonl'), { transcript, inTurn: true })).toMatchObject({ session: undefined, messages: 0 });
    expect(geminiSessionFile('170bc34a-e07d-4fba-8587-7b456cc9fd34', new Date('2026-12-02T04:07:56.508Z'))).toBe('session-2026-12-02T04-07-170bc34a.jsonl');
  });
});

describe("Gemini CLI's conversation point and command line", () => {
  const payload = (event: string, extra: Record<string, unknown> = {}) => ({ session_id: 's-1', transcript_path: '/home/u/.gemini/tmp/p/chats/session-x.jsonl', cwd: '/p', hook_event_name: event, ...extra });

  it('a tool call keeps the conversation inside its turn, a prompt all of it; other calls none', () => {
    expect(geminiHookEvent('BeforeTool', payload('BeforeTool', { tool_name: 'write_file', tool_input: { file_path: '/p/a.txt' } })).conversation).toEqual({ transcript: '/home/u/.gemini/tmp/p/chats/session-x.jsonl', session: 's-1', inTurn: true });
    expect(geminiHookEvent('BeforeAgent', payload('BeforeAgent', { prompt: 'hi' })).conversation).toEqual({ transcript: '/home/u/.gemini/tmp/p/chats/session-x.jsonl', session: 's-1' });
    expect(geminiHookEvent('AfterAgent', payload('AfterAgent')).conversation).toBeUndefined();
    expect(geminiHookEvent('BeforeTool', { ...payload('BeforeTool'), transcript_path: 'relative.jsonl' }).conversation).toBeUndefined();
  });

  it('offers all three modes for a checkpoint that kept its conversation, files only (and why) for one that did not', () => {
    expect(geminiAgent.restoreModes({ conversation: { agent: 'gemini', point: 'x' } }).both).toEqual({ enabled: true });
    expect(geminiAgent.restoreModes({ conversation: null }).conversation).toMatchObject({ enabled: false, reason: expect.stringMatching(/files only/) });
  });

  it("starts again with the user's own arguments, without their session and prompt options, resumed in the new session", () => {
    expect(geminiResumeArgs(['--approval-mode', 'yolo'], 'new')).toEqual(['--approval-mode', 'yolo', '--resume', 'new']);
    expect(geminiResumeArgs(['-r', 'latest', '-m', 'gemini-2.5-pro', '-i', 'fix it', '--yolo'], 'new')).toEqual(['-m', 'gemini-2.5-pro', '--yolo', '--resume', 'new']);
    expect(geminiResumeArgs(['--resume=3', '--session-id', 'abc', '--include-directories', 'a', 'b', '--sandbox', 'fix the bug'], 'new')).toEqual(['--include-directories', 'a', 'b', '--sandbox', '--resume', 'new']);
    expect(geminiResumeArgs(['-p', 'once', '--output-format', 'json', '-e', 'ext1', '-w'], undefined)).toEqual(['--output-format', 'json', '-e', 'ext1', '-w']);
    expect(geminiResumeArgs(['--session-file', 's.json', 'a', 'prompt', '--', '--not-an-option'], 'new')).toEqual(['--resume', 'new']);
  });
});
