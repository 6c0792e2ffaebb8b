// Claude Code's transcript cut back to a checkpoint, on REAL transcripts: the pinned
// release run headless against the fake model (test/agents/captureTranscripts.ts), the
// transcript copied at each hook call as the store would capture it. The session: a first
// prompt whose reply says something and makes two parallel Write calls (three assistant
// lines sharing message.id, the results in two user lines), then a Bash; a second prompt
// with a Bash; `/compact`; a fourth prompt (resumed after the compaction) with a Write.
// Shapes the fake model cannot make (content replacement, subagent lines) are crafted from
// the real lines, as Claude Code writes them (its bundle: `insertContentReplacement`).
// Each cut is checked line for line: the original's lines, only the session id changed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeConversationPoint, claudeConversation } from '../../src/agents/claude/conversation.js';
import { cutClaudeTranscript, TranscriptUnreadable } from '../../src/agents/claude/transcript.js';
import { inMemory, rebuiltFrom } from '../helpers/transcriptBytes.js';
import type { ConversationPoint } from '../../src/shared/conversation.js';
import { repoRoot } from './world.js';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'transcripts', 'claude');
const read = (name: string) => fs.readFileSync(path.join(fixtures, name));
/** A transcript's complete lines (without their newlines). */
const linesOf = (bytes: Buffer) => bytes.toString('utf8').split('\n').slice(0, -1);
const json = (line: string) => JSON.parse(line) as Record<string, unknown> & { message?: { id?: string; content?: unknown } };

/** The whole session, as Claude left it. */
const session = linesOf(read('session.jsonl'));
/** Lines `from` to `to` of the session, counted from 1 as an editor does. */
const lines = (from: number, to: number) => session.slice(from - 1, to);
const oldSession = String(json(session[0] ?? '{}').sessionId);
const newSession = '0b7e3a52-3c1e-4f7a-9d51-2f4c8e6a1b90';
/** A line as the cut must write it: byte for byte the original, but for its session id. */
const renamed = (line: string) => line.replaceAll(`"sessionId":"${oldSession}"`, `"sessionId":"${newSession}"`).replaceAll(`"session_id":"${oldSession}"`, `"session_id":"${newSession}"`);
const transcript = (kept: readonly string[]) => Buffer.from(kept.map((line) => `${line}\n`).join(''));

/** The point a hook call gave (its payload, as the adapter reads it). */
const pointOf = (call: string): ConversationPoint => {
  const point = claudeConversationPoint(JSON.parse(read(`${call}.payload.json`).toString('utf8')));
  if (!point) throw new Error(`${call}: no conversation point`);
  return point;
};
/** The transcript as it stood at a hook call (what the store captured then). */
const capturedAt = (call: string) => read(`${call}.transcript.jsonl`);

const cut = (captured: Buffer, point: Pick<ConversationPoint, 'promptId'>) => inMemory(cutClaudeTranscript)(captured, point, newSession);

/** The cut is exactly `kept` (the original's lines), renamed, and names the new session on every line that named one. */
function expectCut(result: ReturnType<typeof cut>, kept: readonly string[], messages: number): void {
  expect(linesOf(result.content)).toEqual(kept.map(renamed));
  const out = linesOf(result.content).map(json);
  expect(out.filter((line) => 'sessionId' in line || 'session_id' in line)).toHaveLength(kept.map(json).filter((line) => 'sessionId' in line || 'session_id' in line).length);
  for (const line of out) {
    if ('sessionId' in line) expect(line.sessionId).toBe(newSession);
    if ('session_id' in line) expect(line.session_id).toBe(newSession);
  }
  expect(result.content.toString('utf8')).not.toContain(`"sessionId":"${oldSession}"`);
  expect(result.messages).toBe(messages);
}

const types = (from: number, to: number) => lines(from, to).map((line) => json(line).type);

describe('the captured transcripts have the shapes the cut must handle', () => {
  it('a reply over lines sharing message.id, parallel calls with results in two lines, queue lines, a compaction', () => {
    expect(session).toHaveLength(45);
    // Each capture is a prefix of the session: the transcript only grew.
    for (const name of fs.readdirSync(fixtures).filter((file) => file.endsWith('.transcript.jsonl'))) expect(read('session.jsonl').subarray(0, read(name).length).equals(read(name))).toBe(true);
    expect(types(1, 3)).toEqual(['queue-operation', 'queue-operation', 'user']);
    const reply = lines(6, 8).map(json);
    expect(reply.map((line) => line.type)).toEqual(['assistant', 'assistant', 'assistant']);
    expect(new Set(reply.map((line) => line.message?.id))).toEqual(new Set(['msg_fake1']));
    expect(reply.map((line) => (line.message?.content as { type: string }[])[0]?.type)).toEqual(['text', 'tool_use', 'tool_use']);
    expect(lines(9, 10).map((line) => (json(line).message?.content as { type: string; tool_use_id: string }[]).map((block) => `${block.type} ${block.tool_use_id}`))).toEqual([['tool_result toolu_fake1'], ['tool_result toolu_fake1_1']]);
    expect(json(lines(27, 27)[0] ?? '')).toMatchObject({ type: 'system', subtype: 'compact_boundary' });
    expect(json(lines(28, 28)[0] ?? '')).toMatchObject({ type: 'user', isCompactSummary: true });
    expect(session.every((line) => json(line).sessionId === oldSession)).toBe(true);
  });
});

describe('cutting a real transcript back to a checkpoint', () => {
  it("before the second prompt's Bash: the first prompt's exchange, up to the end of its turn (the new prompt's queue lines dropped)", () => {
    const at = pointOf('08-PreToolUse');
    expect(linesOf(capturedAt('08-PreToolUse'))).toEqual(lines(1, 19));
    expectCut(cut(capturedAt('08-PreToolUse'), at), lines(1, 15), 10);
  });

  it('at the second prompt itself (UserPromptSubmit: the prompt is not in the transcript yet): the same cut', () => {
    expect(linesOf(capturedAt('07-UserPromptSubmit'))).toEqual(lines(1, 17));
    expectCut(cut(capturedAt('07-UserPromptSubmit'), pointOf('07-UserPromptSubmit')), lines(1, 15), 10);
  });

  it("before the fourth prompt's Write: everything before it, the compaction (boundary and summary) kept", () => {
    expectCut(cut(capturedAt('14-PreToolUse'), pointOf('14-PreToolUse')), lines(1, 35), 18);
  });

  it("at the fourth prompt itself (its prompt not written yet, after a compaction's local command): the same cut, the compaction whole", () => {
    expect(linesOf(capturedAt('13-UserPromptSubmit'))).toEqual(lines(1, 35));
    expectCut(cut(capturedAt('13-UserPromptSubmit'), pointOf('13-UserPromptSubmit')), lines(1, 35), 18);
  });

  it('inside the first turn (the parallel calls, the Bash after them): no message is left, the agent starts afresh', () => {
    // At the parallel calls' PreToolUse the reply was not written yet; at the Bash's, the reply
    // and only one of the two results were (what the transcript holds at hook time varies: docs/agents.md).
    expect(linesOf(capturedAt('03-PreToolUse'))).toEqual(lines(1, 5));
    expect(linesOf(capturedAt('05-PreToolUse'))).toEqual(lines(1, 9));
    for (const call of ['03-PreToolUse', '04-PreToolUse', '05-PreToolUse']) {
      expect(cut(capturedAt(call), pointOf(call))).toEqual({ content: Buffer.alloc(0), messages: 0 });
      expect(cut(capturedAt(call), {})).toEqual({ content: Buffer.alloc(0), messages: 0 });
    }
    const rebuilt = rebuiltFrom(claudeConversation, capturedAt('05-PreToolUse'), pointOf('05-PreToolUse'));
    expect(rebuilt).toMatchObject({ session: undefined, messages: 0, content: Buffer.alloc(0) });
  });

  it('with no promptId (an older release): the end of the capture when it ends a turn, else back before its last prompt', () => {
    expectCut(cut(read('session.jsonl'), {}), lines(1, 45), 24);
    expectCut(cut(capturedAt('07-UserPromptSubmit'), {}), lines(1, 15), 10);
    expectCut(cut(capturedAt('08-PreToolUse'), {}), lines(1, 15), 10);
  });

  it('drops a half-written last line', () => {
    const whole = read('session.jsonl');
    const upTo = (line: number) => transcript(lines(1, line)).length;
    const halfway = whole.subarray(0, upTo(43) + 100);
    expectCut(cut(halfway, pointOf('14-PreToolUse')), lines(1, 35), 18);
    // The first turn whole, then half of the next line: the turn, as it ended.
    expectCut(cut(whole.subarray(0, upTo(15) + 40), {}), lines(1, 15), 10);
    expectCut(cut(whole.subarray(0, upTo(15) - 1), {}), lines(1, 14), 10);
  });

  it('rebuilds as a new session beside the original, the new id on every line', () => {
    const at = pointOf('14-PreToolUse');
    const rebuilt = rebuiltFrom(claudeConversation, capturedAt('14-PreToolUse'), at);
    expect(rebuilt.session).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(rebuilt.file).toBe(path.join(path.dirname(at.transcript), `${rebuilt.session}.jsonl`));
    expect(rebuilt.messages).toBe(18);
    expect(linesOf(rebuilt.content)).toEqual(lines(1, 35).map((line) => line.replaceAll(`"sessionId":"${oldSession}"`, `"sessionId":"${rebuilt.session}"`)));
  });
});

describe('shapes crafted from the real lines', () => {
  const second = pointOf('08-PreToolUse');
  const fourth = pointOf('14-PreToolUse');

  it('never cuts between a call and its result: a parallel reply with one result missing goes whole, its text line too', () => {
    // The first turn stopped after one of its two results (the agent killed), then the second prompt.
    const interrupted = [...lines(1, 9), ...lines(16, 21)];
    expectCut(cut(transcript(interrupted), second), lines(1, 5), 1);
    // The same at the next prompt's UserPromptSubmit (its line not written yet): the calls go, their prompt stays.
    expectCut(cut(transcript(lines(1, 8)), second), lines(1, 5), 1);
    expectCut(cut(transcript(lines(1, 9)), second), lines(1, 5), 1);
  });

  it('parallel results in one user line pair both calls: nothing moves', () => {
    const [first, other] = lines(9, 10).map(json);
    const results = [...(first?.message?.content as unknown[]), ...(other?.message?.content as unknown[])];
    const merged = JSON.stringify({ ...first, message: { ...first?.message, content: results } });
    const oneLine = [...lines(1, 8), merged, ...lines(11, 21)];
    expectCut(cut(transcript(oneLine), second), [...lines(1, 8), merged, ...lines(11, 15)], 9);
    // With one of the two results left out of that line, the reply goes.
    const half = JSON.stringify({ ...first, message: { ...first?.message, content: results.slice(1) } });
    expectCut(cut(transcript([...lines(1, 8), half, ...lines(11, 21)]), second), lines(1, 5), 1);
  });

  it('keeps content-replacement lines, for the new session (Claude applies them only to their own session)', () => {
    const replacement = JSON.stringify({
      type: 'content-replacement',
      sessionId: oldSession,
      replacements: [{ kind: 'tool-result', toolUseId: 'toolu_fake4', replacement: '<persisted-output>Output too large. Full output saved to: /SANDBOX/agent/tool-results/toolu_fake4.txt</persisted-output>' }],
    });
    const withReplacement = [...lines(1, 20), replacement, ...lines(21, 45)];
    expectCut(cut(transcript(withReplacement), fourth), [...lines(1, 20), replacement, ...lines(21, 35)], 18);
    // Before the turn that made it: gone with the turn.
    expectCut(cut(transcript(withReplacement.slice(0, 20)), second), lines(1, 15), 10);
  });

  it("keeps a subagent's sidechain lines (their own calls unpaired or not) without cutting on them", () => {
    const base = json(lines(19, 19)[0] ?? '');
    const sidechain = (type: 'user' | 'assistant', content: unknown[], uuid: string) =>
      JSON.stringify({ parentUuid: null, isSidechain: true, agentId: 'a1b2c3d4', type, message: { role: type, content, ...(type === 'assistant' ? { id: 'msg_sub1' } : {}) }, uuid, timestamp: base.timestamp, sessionId: oldSession, promptId: type === 'user' ? second.promptId : undefined });
    const lines2 = [
      sidechain('user', [{ type: 'text', text: 'Look around' }], '00000000-0000-4000-8000-000000000001'),
      sidechain('assistant', [{ type: 'tool_use', id: 'toolu_sub1', name: 'Bash', input: { command: 'ls' } }], '00000000-0000-4000-8000-000000000002'),
    ];
    const withSubagent = [...lines(1, 19), ...lines2, ...lines(20, 45)];
    expectCut(cut(transcript(withSubagent), fourth), [...lines(1, 19), ...lines2, ...lines(20, 35)], 18);
    // A sidechain line never stands for the prompt: the cut is before the main one.
    expectCut(cut(transcript(withSubagent.slice(0, 22)), second), lines(1, 15), 10);
  });

  it('rewrites session_id too, and leaves a line without a session id byte for byte', () => {
    const snake = `{"type":"attachment","session_id":"${oldSession}","note":"é \\u00e9 \\/"}`;
    const bare = '{"type":"file-history-snapshot" , "messageId":"x"}';
    expectCut(cut(transcript([...lines(1, 15), snake, bare, ...lines(16, 19)]), second), [...lines(1, 15), snake.replace(/,"note":.*$/, ',"note":"é é /"}'), bare], 10);
  });

  it('a transcript with no message (only queue and snapshot lines): empty, the agent starts afresh', () => {
    const noMessage = [...lines(1, 2), '{"type":"file-history-snapshot","messageId":"m","snapshot":{},"isSnapshotUpdate":false}'];
    expect(cut(transcript(noMessage), {})).toEqual({ content: Buffer.alloc(0), messages: 0 });
    expect(cut(Buffer.alloc(0), {})).toEqual({ content: Buffer.alloc(0), messages: 0 });
    expect(rebuiltFrom(claudeConversation, transcript(noMessage), fourth)).toMatchObject({ session: undefined, messages: 0 });
  });

  it('a line that is not a JSON object: TranscriptUnreadable, naming it (nothing is cut)', () => {
    for (const garbage of ['{"type":"user","mess', '[1,2]', 'null', '42']) {
      const damaged = [...lines(1, 19), garbage, ...lines(20, 45)];
      expect(() => cut(transcript(damaged), fourth)).toThrow(new TranscriptUnreadable(20));
      expect(() => rebuiltFrom(claudeConversation, transcript(damaged), fourth)).toThrow(/^line 20 of the transcript is not JSON$/);
    }
  });
});
