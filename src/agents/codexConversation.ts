// Codex's conversation at a checkpoint: where it stood at each hook call (the payload's
// transcript_path, session_id and turn_id), rebuilt as a new rollout beside the original,
// resumed with `codex resume <id>`.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ConversationPoint } from '../shared/conversation.js';
import type { ConversationSupport, HookOutcome } from './agentAdapter.js';
import { callAnchor, cutCodexRollout, promptAnchor } from './codexRollout.js';
import { codexResumeArgs } from './codexResume.js';
import { field } from './payload.js';

/** Where the conversation stands at a hook call (the turn's id names where a cut goes). */
export function codexConversationPoint(payload: unknown): HookOutcome['conversation'] {
  const transcript = field(payload, 'transcript_path');
  const session = field(payload, 'session_id');
  if (!transcript || !path.isAbsolute(transcript) || !session || !path.basename(transcript).includes(session)) return undefined;
  // The step's turn, found by what Codex's TUI reports reliably (see codexRollout.ts).
  const call = field(payload, 'tool_use_id');
  const prompt = field(payload, 'prompt');
  const anchor = call ? callAnchor(call) : prompt !== undefined ? promptAnchor(prompt) : field(payload, 'turn_id');
  return { transcript, session, ...(anchor ? { promptId: anchor } : {}) };
}

export const codexConversation: ConversationSupport = {
  rebuild(captured: Buffer, point: ConversationPoint, latest?: Buffer) {
    const session = randomUUID();
    const cut = cutCodexRollout(captured, point, session, latest);
    const name = point.session ? path.basename(point.transcript).replace(point.session, session) : `rollout-${session}.jsonl`;
    return { file: path.join(path.dirname(point.transcript), name), content: cut.content, session: cut.messages > 0 ? session : undefined, messages: cut.messages };
  },
  resumeArgs: codexResumeArgs,
};
