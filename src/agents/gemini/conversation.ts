// Gemini CLI's conversation at a checkpoint (docs/agents.md): where it stood at each hook call (the
// payload's transcript_path and session_id; its payloads name no prompt, so a tool call says
// only that it is inside a turn), rebuilt as a new session's file in the same chats folder
// (with Rewind's Gemini home, tmp/ is the user's own), resumed with `--resume <id>`.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ConversationPoint } from '../../shared/conversation.js';
import type { TranscriptBytes } from '../../shared/transcriptLines.js';
import type { ConversationSupport, HookOutcome, TranscriptFolder } from '../agentAdapter.js';
import { userGeminiDir } from './home.js';
import { geminiResumeArgs } from './resume.js';
import { cutGeminiSession } from './transcript.js';
import { field } from '../payload.js';

/** Where the conversation stands at a hook call (`inTurn`: a tool call, inside its prompt's turn). */
export function geminiConversationPoint(payload: unknown, inTurn: boolean): HookOutcome['conversation'] {
  const transcript = field(payload, 'transcript_path');
  if (!transcript || !path.isAbsolute(transcript)) return undefined;
  const session = field(payload, 'session_id');
  return { transcript, ...(session ? { session } : {}), ...(inTurn ? { inTurn } : {}) };
}

/** A session file's name as Gemini makes it: `session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl`. */
export function geminiSessionFile(session: string, now = new Date()): string {
  return `session-${now.toISOString().slice(0, 16).replace(/:/g, '-')}-${session.slice(0, 8)}.jsonl`;
}

/**
 * Gemini CLI's session files: `<its .gemini>/tmp/<project>/chats/session-…-<first 8 of the id>.jsonl`
 * (with Rewind's Gemini home, its tmp/ is a link to the user's own: the real folder is the same).
 */
export function geminiTranscripts(env: NodeJS.ProcessEnv): TranscriptFolder {
  return {
    folder: path.join(userGeminiDir(env), 'tmp'),
    names: (parts, session) => parts.length === 3 && parts[1] === 'chats' && /^session-.+\.jsonl$/.test(parts[2] ?? '') && (parts[2] ?? '').endsWith(`-${session.slice(0, 8)}.jsonl`),
  };
}

/** The short name Gemini CLI gave the project at `root` in its registry (`<.gemini>/projects.json`), if it has run there and its folder still says so. */
function registeredName(env: NodeJS.ProcessEnv, root: string): string | undefined {
  let name: unknown;
  try {
    name = (JSON.parse(fs.readFileSync(path.join(userGeminiDir(env), 'projects.json'), 'utf8')) as { projects?: Record<string, unknown> }).projects?.[path.resolve(root)];
  } catch {
    return undefined;
  }
  if (typeof name !== 'string' || !/^[\w.-]+$/.test(name) || name === '.' || name === '..') return undefined;
  // Gemini takes the name as the project's only while its folder's `.project_root` names the
  // project (or there is none).
  try {
    if (fs.readFileSync(path.join(geminiTranscripts(env).folder, name, '.project_root'), 'utf8').trim() !== path.resolve(root)) return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
  }
  return name;
}

/**
 * A session file kept on another machine, in this project's chats folder here: under the name
 * Gemini CLI's registry gives the project; null (no place here) when Gemini has not run in it
 * yet (the name it would take is its own to choose).
 */
export function geminiRelocate(transcript: string, projectRoot: string, env: NodeJS.ProcessEnv): string | null {
  const name = registeredName(env, projectRoot);
  return name ? path.join(geminiTranscripts(env).folder, name, 'chats', path.basename(transcript)) : null;
}

/** Gemini CLI's session files and `--resume`. */
export const geminiConversation: ConversationSupport = {
  rebuild(captured: TranscriptBytes, point: ConversationPoint) {
    const session = randomUUID();
    const cut = cutGeminiSession(captured, point, session);
    return { file: path.join(path.dirname(point.transcript), geminiSessionFile(session)), content: cut.content, session: cut.messages > 0 ? session : undefined, messages: cut.messages };
  },
  resumeArgs: geminiResumeArgs,
  transcripts: geminiTranscripts,
  relocate: geminiRelocate,
};
