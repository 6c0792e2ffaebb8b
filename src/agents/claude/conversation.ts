// Claude Code's conversation at a checkpoint (docs/agents.md): where it stood at each hook call
// (the payload's transcript_path, session_id, prompt_id), rebuilt as a new session's file
// beside the original, resumed with `--resume <id>`.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { homeDir } from '../../config/paths.js';
import type { ConversationPoint } from '../../shared/conversation.js';
import type { TranscriptBytes } from '../../shared/transcriptLines.js';
import type { ConversationSupport, HookOutcome, TranscriptFolder } from '../agentAdapter.js';
import { claudeResumeArgs } from './resume.js';
import { cutClaudeTranscript } from './transcript.js';
import { field } from '../payload.js';

/** Where the conversation stands at a hook call, when the payload says where its transcript is. */
export function claudeConversationPoint(payload: unknown): HookOutcome['conversation'] {
  const transcript = field(payload, 'transcript_path');
  if (!transcript || !path.isAbsolute(transcript)) return undefined;
  const session = field(payload, 'session_id');
  const promptId = field(payload, 'prompt_id');
  return { transcript, ...(session ? { session } : {}), ...(promptId ? { promptId } : {}) };
}

/** Claude Code's transcripts: `<config folder>/projects/<project slug>/<session id>.jsonl`. */
export function claudeTranscripts(env: NodeJS.ProcessEnv): TranscriptFolder {
  const config = env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(homeDir(env), '.claude');
  return { folder: path.join(config, 'projects'), names: (parts, session) => parts.length === 2 && parts[1] === `${session}.jsonl` };
}

/**
 * Where Claude Code keeps the transcripts of the project at `projectRoot`: its folder named
 * by the path with every character but letters and digits made `-` (a longer one than 200
 * characters is cut and hashed by Claude: undefined, as that hash is not known here).
 */
export function claudeRelocate(transcript: string, projectRoot: string, env: NodeJS.ProcessEnv): string | undefined {
  const slug = projectRoot.replace(/[^a-zA-Z0-9]/g, '-');
  if (slug.length > 200) return undefined;
  return path.join(claudeTranscripts(env).folder, slug, path.basename(transcript));
}

/** Claude Code's transcripts and `--resume` (the demo agent keeps and resumes the same). */
export const claudeConversation: ConversationSupport = {
  rebuild(captured: TranscriptBytes, point: ConversationPoint) {
    const session = randomUUID();
    const cut = cutClaudeTranscript(captured, point, session);
    return { file: path.join(path.dirname(point.transcript), `${session}.jsonl`), content: cut.content, session: cut.messages > 0 ? session : undefined, messages: cut.messages };
  },
  resumeArgs: claudeResumeArgs,
  transcripts: claudeTranscripts,
  relocate: claudeRelocate,
};
