// Codex's conversation at a checkpoint: where it stood at each hook call (the payload's
// transcript_path, session_id and turn_id), rebuilt as a new rollout beside the original,
// resumed with `codex resume <id>`.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ConversationPoint } from '../../shared/conversation.js';
import type { TranscriptBytes } from '../../shared/transcriptLines.js';
import type { ConversationSupport, HookOutcome, TranscriptFolder } from '../agentAdapter.js';
import { callAnchor, cutCodexRollout, promptAnchor } from './rollout.js';
import { codexResumeArgs } from './resume.js';
import { codexHome } from './home.js';
import { field } from '../payload.js';

/** Where the conversation stands at a hook call (the turn's id names where a cut goes). */
export function codexConversationPoint(payload: unknown): HookOutcome['conversation'] {
  const transcript = field(payload, 'transcript_path');
  const session = field(payload, 'session_id');
  if (!transcript || !path.isAbsolute(transcript) || !session || !path.basename(transcript).includes(session)) return undefined;
  // The step's turn, found by what Codex's TUI reports reliably (see rollout.ts).
  const call = field(payload, 'tool_use_id');
  const prompt = field(payload, 'prompt');
  const anchor = call ? callAnchor(call) : prompt !== undefined ? promptAnchor(prompt) : field(payload, 'turn_id');
  return { transcript, session, ...(anchor ? { promptId: anchor } : {}) };
}

/** Codex's rollouts: `$CODEX_HOME/sessions/<YYYY>/<MM>/<DD>/rollout-<time>-<session id>.jsonl` (its folders below sessions/ taken as they come: the layout is migrating). */
export function codexTranscripts(env: NodeJS.ProcessEnv): TranscriptFolder {
  return { folder: path.join(codexHome(env), 'sessions'), names: (parts, session) => /^rollout-.+\.jsonl$/.test(parts.at(-1) ?? '') && (parts.at(-1) ?? '').endsWith(`${session}.jsonl`) };
}

/**
 * A rollout kept on another machine, under this one's sessions folder: the same folders below
 * `sessions/` (Codex's rollouts are not kept by project); undefined when the path has none.
 */
export function codexRelocate(transcript: string, _projectRoot: string, env: NodeJS.ProcessEnv): string | undefined {
  const parts = transcript.split('/');
  const at = parts.lastIndexOf('sessions');
  if (at < 0 || at === parts.length - 1) return undefined;
  return path.join(codexTranscripts(env).folder, ...parts.slice(at + 1));
}

export const codexConversation: ConversationSupport = {
  rebuild(captured: TranscriptBytes, point: ConversationPoint, latest?: TranscriptBytes) {
    const session = randomUUID();
    const cut = cutCodexRollout(captured, point, session, latest);
    const name = point.session ? path.basename(point.transcript).replace(point.session, session) : `rollout-${session}.jsonl`;
    return { file: path.join(path.dirname(point.transcript), name), content: cut.content, session: cut.messages > 0 ? session : undefined, messages: cut.messages };
  },
  resumeArgs: codexResumeArgs,
  transcripts: codexTranscripts,
  relocate: codexRelocate,
};
