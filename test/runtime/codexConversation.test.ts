// Codex's rollout cut and its command line started again (the real rollouts' shapes: see
// test/agents/codexConversation.test.ts for the proof on the real CLI).
import { describe, expect, it } from 'vitest';
import { callAnchor, cutCodexRollout as cutRollout, promptAnchor, RolloutUnreadable, StepNotWritten } from '../../src/agents/codex/rollout.js';
import { inMemory } from '../helpers/transcriptBytes.js';

const cutCodexRollout = inMemory(cutRollout);
import { codexResumeArgs } from '../../src/agents/codex/resume.js';
import { codexConversationPoint } from '../../src/agents/codex/conversation.js';

const old = '01a234f0-a7ab-7841-ad37-868126c75a3c';
const line = (value: object) => JSON.stringify(value);
const rollout = [
  line({ type: 'session_meta', payload: { id: old, session_id: old } }),
  line({ type: 'event_msg', payload: { type: 'task_started', turn_attribution: { turn_id: 'turn-1' } } }),
  line({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first' }] } }),
  line({ type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'one' }] } }),
  line({ type: 'event_msg', payload: { type: 'task_complete', turn_id: 'turn-1', thread_id: old } }),
  line({ type: 'event_msg', payload: { type: 'thread_settings_applied', thread_id: old } }),
  line({ type: 'event_msg', payload: { type: 'task_started', turn_attribution: { turn_id: 'turn-2' } } }),
  line({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'second' }] } }),
].map((text) => `${text}\n`);

describe("a Codex rollout cut back to a step", () => {
  it('keeps the turns that ended before the step\u2019s turn, the session id replaced in every line', () => {
    const cut = cutCodexRollout(Buffer.from(rollout.join('')), { promptId: 'turn-2', session: old }, 'fresh-id');
    expect(cut.content.toString()).toBe(rollout.slice(0, 5).join('').replaceAll(old, 'fresh-id'));
    expect(cut.messages).toBe(2);
  });

  it('without a turn id, goes back to the last turn that ended in what was captured; a half-written last line is dropped', () => {
    const cut = cutCodexRollout(Buffer.from(`${rollout.join('')}{"type":"resp`), { session: old }, 'x');
    expect(cut.content.toString().trimEnd().split('\n')).toHaveLength(5);
  });

  it("finds the step's turn by its tool call's id or its prompt in the rollout as it is now, when the capture does not hold it yet (Codex's TUI writes late)", () => {
    const call = line({ type: 'response_item', payload: { type: 'function_call', call_id: 'call_7', name: 'exec_command' } });
    const later = [...rollout, `${call}\n`].join('');
    const captured = Buffer.from(rollout.slice(0, 2).join(''));
    const expected = rollout.slice(0, 5).join('').replaceAll(old, 'n');
    expect(cutCodexRollout(captured, { promptId: callAnchor('call_7'), session: old }, 'n', Buffer.from(later)).content.toString()).toBe(expected);
    // A prompt's turn: the next one with its text after those the capture held.
    expect(cutCodexRollout(Buffer.from(rollout.slice(0, 5).join('')), { promptId: promptAnchor('second'), session: old }, 'n', Buffer.from(later)).content.toString()).toBe(expected);
    expect(cutCodexRollout(Buffer.from(rollout.slice(0, 1).join('')), { promptId: promptAnchor('first'), session: old }, 'n', Buffer.from(later))).toEqual({ content: Buffer.alloc(0), messages: 0 });
    // A step not written anywhere yet: no guess (it could start the agent afresh), an error that changes nothing.
    expect(() => cutCodexRollout(captured, { promptId: callAnchor('call_9'), session: old }, 'n', Buffer.from(later))).toThrow(StepNotWritten);
  });

  it('is empty for a step of the first turn (nothing to resume), and refuses a line that is not JSON', () => {
    const firstTurnCall = [...rollout.slice(0, 3), `${line({ type: 'response_item', payload: { type: 'function_call', call_id: 'call_1' } })}\n`].join('');
    expect(cutCodexRollout(Buffer.from(firstTurnCall), { promptId: callAnchor('call_1'), session: old }, 'x')).toEqual({ content: Buffer.alloc(0), messages: 0 });
    expect(() => cutCodexRollout(Buffer.from(`${rollout[0]}garbage\n`), { session: old }, 'x')).toThrow(RolloutUnreadable);
  });

  it('reads the point from a hook payload only when its rollout is the session\u2019s', () => {
    const transcript = `/h/sessions/2026/12/02/rollout-2026-12-02T04-08-36-${old}.jsonl`;
    expect(codexConversationPoint({ transcript_path: transcript, session_id: old, turn_id: 't' })).toEqual({ transcript, session: old, promptId: 't' });
    expect(codexConversationPoint({ transcript_path: transcript, session_id: old, turn_id: 't', tool_use_id: 'call_3' })).toEqual({ transcript, session: old, promptId: 'call:call_3' });
    expect(codexConversationPoint({ transcript_path: transcript, session_id: old, turn_id: 't', prompt: 'fix it' })).toEqual({ transcript, session: old, promptId: 'prompt:fix it' });
    expect(codexConversationPoint({ transcript_path: transcript, session_id: 'other' })).toBeUndefined();
    expect(codexConversationPoint({ transcript_path: 'relative.jsonl', session_id: old })).toBeUndefined();
  });
});

describe('codex started again on a rebuilt conversation', () => {
  it("keeps the user's options, drops the prompt and what picks a session, then resume <id>", () => {
    expect(codexResumeArgs(['-c', 'model="x"', '--no-daemon', '-m', 'gpt', 'fix the bug'], 'new')).toEqual(['-c', 'model="x"', '--no-daemon', '-m', 'gpt', 'resume', 'new']);
    expect(codexResumeArgs(['--full-auto', 'resume', 'old-id'], 'new')).toEqual(['--full-auto', 'resume', 'new']);
    expect(codexResumeArgs(['-i', 'a.png', 'b.png', '--config=x=1', 'prompt'], undefined)).toEqual(['-i', 'a.png', 'b.png', '--config=x=1']);
  });
});
