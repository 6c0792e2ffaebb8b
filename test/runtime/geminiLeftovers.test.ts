// What a Gemini resume leaves beside a session's own file (src/agents/gemini/leftovers.ts), on real
// files shaped as Gemini 0.61 writes them: only a file of that session with nothing Gemini
// would resume (its metadata, its own context message, or nothing at all) goes; the session's
// own file, other sessions' files (the same 8 characters included) and anything that holds a
// prompt or a reply or cannot be read stay byte for byte.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { geminiHookEvent } from '../../src/agents/gemini/adapter.js';
import { dropResumeLeftovers } from '../../src/agents/gemini/leftovers.js';

const session = 'c7973b12-5725-43d4-9a58-b1a2432c87f7';
const sameShortId = 'c7973b12-0000-4000-8000-000000000000';
const metadata = (id: string, at = '2026-12-01T23:07:00.000Z') => JSON.stringify({ sessionId: id, projectHash: 'abc', startTime: at, lastUpdated: at, kind: 'main' });
const message = JSON.stringify({ id: 'm1', timestamp: '2026-12-01T23:06:30.000Z', type: 'user', content: [{ text: 'hello' }] });
/** What a headless Gemini writes second: the history it starts with, its own context alone. */
const context = JSON.stringify({ $set: { messages: [{ id: 'c1', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] }] } });
const reply = JSON.stringify({ id: 'g1', type: 'gemini', content: 'Done.' });

let chats: string;
beforeEach(() => {
  chats = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-gemini-chats-'));
});
afterEach(() => {
  fs.rmSync(chats, { recursive: true, force: true });
});

function put(name: string, lines: string[]): string {
  fs.writeFileSync(path.join(chats, name), lines.map((line) => `${line}\n`).join(''));
  return name;
}
const own = 'session-2026-12-01T23-06-c7973b12.jsonl';
const payload = (extra: Record<string, unknown> = {}) => ({ session_id: session, transcript_path: path.join(chats, own), hook_event_name: 'BeforeAgent', ...extra });

describe("a Gemini resume's leftovers", () => {
  it('go: the files of nothing but the session metadata beside its own file; everything else stays as it was', () => {
    put(own, [metadata(session), message]);
    const leftover = put('session-2026-12-01T23-07-c7973b12.jsonl', [metadata(session)]);
    const twice = put('session-2026-12-01T23-09-c7973b12.jsonl', [metadata(session), metadata(session, '2026-12-01T23:09:00.000Z')]);
    const empty = put('session-2026-12-01T23-13-c7973b12.jsonl', []);
    const headless = put('session-2026-12-01T23-14-c7973b12.jsonl', [metadata(session), context]);
    const keep = [
      put('session-2026-12-01T23-08-c7973b12.jsonl', [metadata(session), message]),
      put('session-2026-12-01T23-15-c7973b12.jsonl', [metadata(session), context, reply]),
      // Gemini's loader would see nothing after the emptied list; the reply was said all the same.
      put('session-2026-12-01T23-16-c7973b12.jsonl', [metadata(session), reply, JSON.stringify({ $set: { messages: [] } })]),
      put('session-2026-12-01T23-10-c7973b12.jsonl', [metadata(sameShortId)]),
      put('session-2026-12-01T23-11-c7973b12.jsonl', ['{"sessionId":']),
      put('session-2026-12-01T23-12-c7973b12.jsonl', [JSON.stringify({ ...JSON.parse(metadata(session)), kind: 'subagent' })]),
      put('session-2026-12-01T23-07-d0000000.jsonl', [metadata('d0000000-5725-43d4-9a58-b1a2432c87f7')]),
      put('notes-c7973b12.jsonl', [metadata(session)]),
    ];
    const before = new Map(keep.map((name) => [name, fs.readFileSync(path.join(chats, name))]));
    const ownBytes = fs.readFileSync(path.join(chats, own));

    expect(dropResumeLeftovers(payload()).sort()).toEqual([leftover, twice, empty, headless]);
    expect(fs.readdirSync(chats).sort()).toEqual([own, ...keep].sort());
    for (const [name, bytes] of before) expect(fs.readFileSync(path.join(chats, name)).equals(bytes), name).toBe(true);
    expect(fs.readFileSync(path.join(chats, own)).equals(ownBytes)).toBe(true);
  });

  it('go at a prompt (BeforeAgent), not at a tool call or the end of a turn: reading the call removes nothing, its tidy does', () => {
    put(own, [metadata(session), message]);
    const leftover = put('session-2026-12-01T23-07-c7973b12.jsonl', [metadata(session)]);
    expect(geminiHookEvent('BeforeTool', payload({ hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: 'a.txt' } })).tidy).toBeUndefined();
    expect(geminiHookEvent('AfterAgent', payload({ hook_event_name: 'AfterAgent' })).tidy).toBeUndefined();
    const outcome = geminiHookEvent('BeforeAgent', payload({ prompt: 'go on' }));
    expect(outcome.checkpoint?.label).toBe('go on');
    expect(fs.existsSync(path.join(chats, leftover))).toBe(true);
    outcome.tidy?.();
    expect(fs.existsSync(path.join(chats, leftover))).toBe(false);
  });

  it('nothing goes without the session at work in its own file, or with a payload that names none', () => {
    const leftover = put('session-2026-12-01T23-07-c7973b12.jsonl', [metadata(session)]);
    expect(dropResumeLeftovers(payload())).toEqual([]);
    put(own, [metadata(session), message]);
    for (const garbled of [undefined, 'text', {}, { session_id: session }, { transcript_path: path.join(chats, own) }, payload({ session_id: 'c79' }), payload({ transcript_path: own })]) {
      expect(dropResumeLeftovers(garbled)).toEqual([]);
    }
    expect(fs.existsSync(path.join(chats, leftover))).toBe(true);
  });
});
