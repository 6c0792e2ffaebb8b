// Gemini CLI's session file cut back to a checkpoint (FACTS.md; read off the pinned 0.61
// release's loader and real files). A session file is JSON lines that Gemini replays on load:
// - a metadata record (`sessionId`, `projectHash`, `startTime`, `kind`…) first;
// - message records (`id`, `type` user|gemini|info|…, `content`, a reply's `toolCalls` with
//   their results): one with an id already seen updates that message in place (a reply is
//   written when it starts, again once its tool calls have results);
// - `{"$set":{…}}` metadata updates; one with `messages` replaces the whole list (on resume);
// - `{"$rewindTo":"<id>"}` (Gemini's own /rewind): that message and all after it go.
// Unparseable lines are skipped, as Gemini does. The cut keeps the lines before the one
// where the turn's prompt first appeared, so the copy holds the conversation as it stood
// just before that prompt and nothing of what came after; every record naming the session
// names the new one. The original file is never touched: the result is a new file's bytes.
import type { ConversationPoint } from '../shared/conversation.js';
import { completeLines } from './jsonLines.js';

type Rec = Record<string, unknown>;
interface Message extends Rec {
  id: string;
}

/** A session file the cut cannot work with: nothing is written. */
export class SessionUnusable extends Error {
  constructor(why: string) {
    super(`the Gemini session file ${why}`);
    this.name = 'SessionUnusable';
  }
}

export interface SessionCut {
  /** The new session file (empty when no message is left: the conversation starts afresh). */
  content: Buffer;
  /** How many messages Gemini would resume (prompts and replies). */
  messages: number;
}

const isObject = (value: unknown): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value);
const isMessage = (value: unknown): value is Message => isObject(value) && typeof value.id === 'string';
const isMetadata = (rec: Rec) => typeof rec.sessionId === 'string' && typeof rec.projectHash === 'string';

/**
 * A message's content as Gemini reads it to judge it: its text, any other part as a
 * bracketed stand-in (a tool's result, a file, an image), so that only text can be ignored.
 */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : isObject(part) && Object.keys(part).length > 0 ? '[part]' : '')).join('');
}

const hasParts = (content: unknown, kind: string) => Array.isArray(content) && content.some((part) => isObject(part) && kind in part);

/** What Gemini does not count as the user's words: empty, a slash or ? command, its own context blocks. */
function ignoredUserText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === '' || /^[/?]/.test(trimmed) || trimmed.startsWith('<session_context>') || trimmed.startsWith('<hook_context>');
}

/** A prompt the user sent (not a tool's result, not a command, not Gemini's own context). */
function isPrompt(message: Message): boolean {
  return message.type === 'user' && !hasParts(message.content, 'functionResponse') && !ignoredUserText(textOf(message.content));
}

/** A message Gemini resumes a session for (its own rule: the user's words, or a reply that says, calls or thinks). */
function isResumable(message: Message): boolean {
  if (message.type === 'user') return !ignoredUserText(textOf(message.content));
  if (message.type !== 'gemini') return false;
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls.length : 0;
  const thoughts = Array.isArray(message.thoughts) ? message.thoughts.length : 0;
  return textOf(message.content).trim() !== '' || calls > 0 || thoughts > 0;
}

/** The session as Gemini loads it after `records` (null: a line it skips). */
class Replay {
  readonly messages = new Map<string, Message>();
  metadata: Rec = {};
  /** Each message id's first line. */
  readonly firstLine = new Map<string, number>();

  apply(rec: Rec | null, line: number): void {
    if (rec === null) return;
    const seen = (id: string) => {
      if (!this.firstLine.has(id)) this.firstLine.set(id, line);
    };
    if (typeof rec.$rewindTo === 'string') {
      const ids = [...this.messages.keys()];
      const at = ids.indexOf(rec.$rewindTo);
      for (const id of at < 0 ? ids : ids.slice(at)) this.messages.delete(id);
    } else if (isMessage(rec)) {
      seen(rec.id);
      this.messages.set(rec.id, rec);
    } else if (isObject(rec.$set)) {
      const set = rec.$set;
      if (Array.isArray(set.messages)) {
        this.messages.clear();
        for (const message of set.messages.filter(isMessage)) {
          seen(message.id);
          this.messages.set(message.id, message);
        }
      }
      this.metadata = { ...this.metadata, ...set };
    } else if (isMetadata(rec)) {
      this.metadata = { ...this.metadata, ...rec };
      for (const message of (Array.isArray(rec.messages) ? rec.messages : []).filter(isMessage)) {
        seen(message.id);
        this.messages.set(message.id, message);
      }
    }
  }
}

function parse(line: string): Rec | null {
  if (line.trim() === '') return null;
  try {
    const value = JSON.parse(line) as unknown;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function replay(records: readonly (Rec | null)[]): Replay {
  const state = new Replay();
  records.forEach((rec, line) => state.apply(rec, line));
  return state;
}

/** A record with the session it names set to `session` (the metadata record, a `$set` of the id); null: unchanged. */
function renamed(rec: Rec | null, session: string): Rec | null {
  if (rec === null) return null;
  if (isMetadata(rec)) return { ...rec, sessionId: session };
  if (isObject(rec.$set) && typeof rec.$set.sessionId === 'string') return { ...rec, $set: { ...rec.$set, sessionId: session } };
  return null;
}

/**
 * Gemini CLI's session as it was at a checkpoint, for a new session `session`: the complete
 * lines captured (a half-written last one dropped); for a call inside a turn (`inTurn`: a
 * tool call), only those before the line where the turn's prompt (the last prompt Gemini
 * would load) first appeared. A cut there never parts a tool call from its result: a reply
 * and its calls' results are one message, and the turn before the prompt was over.
 */
export function cutGeminiSession(captured: Buffer, point: Pick<ConversationPoint, 'inTurn'>, session: string): SessionCut {
  const raw = completeLines(captured);
  const records = raw.map(parse);
  const whole = replay(records);
  if (records.length > 0 && !isMetadata(whole.metadata)) throw new SessionUnusable('has no session record (not a JSONL session of Gemini CLI)');
  if (whole.metadata.kind === 'subagent') throw new SessionUnusable("is a subagent's, which Gemini does not resume");
  let length = records.length;
  if (point.inTurn) {
    const prompt = [...whole.messages.values()].filter(isPrompt).at(-1);
    // No prompt loaded: nothing of the conversation comes before this turn.
    length = prompt ? (whole.firstLine.get(prompt.id) ?? length) : 0;
  }
  const kept = length === records.length ? whole : replay(records.slice(0, length));
  const messages = [...kept.messages.values()].filter(isResumable).length;
  if (messages === 0) return { content: Buffer.alloc(0), messages };
  const out = raw.slice(0, length).map((line, index) => {
    const rec = renamed(records[index] ?? null, session);
    return rec === null ? line : JSON.stringify(rec);
  });
  return { content: Buffer.from(out.map((line) => `${line}\n`).join(''), 'utf8'), messages };
}

/**
 * Whether a session file is session `session`'s (not a subagent's) and no message in it, in
 * any record, is one Gemini would resume for (its own rule): what a resume leaves beside the
 * session's own file. Stricter than Gemini's loader, which judges only what survives replay.
 */
export function nothingToResume(bytes: Buffer, session: string): boolean {
  const records = completeLines(bytes).map(parse);
  const state = replay(records);
  if (state.metadata.sessionId !== session || state.metadata.kind === 'subagent') return false;
  const everyMessage = records.flatMap((rec) => {
    if (rec === null) return [];
    const listed = isObject(rec.$set) && Array.isArray(rec.$set.messages) ? rec.$set.messages : Array.isArray(rec.messages) ? rec.messages : [];
    return [rec, ...listed].filter(isMessage);
  });
  return !everyMessage.some(isResumable);
}
