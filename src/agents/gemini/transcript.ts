// Gemini CLI's session file cut back to a checkpoint (docs/agents.md; read off the pinned 0.61
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
// The file is read line by line (it may be larger than memory allows), keeping of each
// message only what the cut judges it by.
import type { ConversationPoint } from '../../shared/conversation.js';
import { bufferTranscript, firstLines, type TranscriptBytes } from '../../shared/transcriptLines.js';

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
  /** The new session file, made as it is read (nothing when no message is left: the conversation starts afresh). */
  content: Iterable<string>;
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

/** What the cut keeps of a message: whether it is a prompt, and whether Gemini would resume for it. */
interface Judged {
  prompt: boolean;
  resumable: boolean;
}

const judged = (message: Message): Judged => ({ prompt: isPrompt(message), resumable: isResumable(message) });

/** The session's metadata as far as the cut reads it. */
type Metadata = { sessionId?: unknown; projectHash?: unknown; kind?: unknown };
const metadataOf = (rec: Rec): Metadata => ({
  ...('sessionId' in rec ? { sessionId: rec.sessionId } : {}),
  ...('projectHash' in rec ? { projectHash: rec.projectHash } : {}),
  ...('kind' in rec ? { kind: rec.kind } : {}),
});

/** The session as Gemini loads it after the records applied so far (null: a line it skips). */
class Replay {
  readonly messages = new Map<string, Judged>();
  metadata: Metadata = {};
  /** Each message id's first line. */
  readonly firstLine = new Map<string, number>();

  apply(rec: Rec | null, line: number): void {
    if (rec === null) return;
    const seen = (message: Message) => {
      if (!this.firstLine.has(message.id)) this.firstLine.set(message.id, line);
      this.messages.set(message.id, judged(message));
    };
    if (typeof rec.$rewindTo === 'string') {
      const ids = [...this.messages.keys()];
      const at = ids.indexOf(rec.$rewindTo);
      for (const id of at < 0 ? ids : ids.slice(at)) this.messages.delete(id);
    } else if (isMessage(rec)) {
      seen(rec);
    } else if (isObject(rec.$set)) {
      const set = rec.$set;
      if (Array.isArray(set.messages)) {
        this.messages.clear();
        for (const message of set.messages.filter(isMessage)) seen(message);
      }
      this.metadata = { ...this.metadata, ...metadataOf(set) };
    } else if (isMetadata(rec)) {
      this.metadata = { ...this.metadata, ...metadataOf(rec) };
      for (const message of (Array.isArray(rec.messages) ? rec.messages : []).filter(isMessage)) seen(message);
    }
  }
}

const isSession = (metadata: Metadata) => typeof metadata.sessionId === 'string' && typeof metadata.projectHash === 'string';

function parse(line: string): Rec | null {
  if (line.trim() === '') return null;
  try {
    const value = JSON.parse(line) as unknown;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** The session after its first `count` lines (all of them by default), and how many lines it has. */
function replay(source: TranscriptBytes, count = Infinity): { state: Replay; lines: number } {
  const state = new Replay();
  let lines = 0;
  for (const line of source.lines()) {
    if (lines >= count) break;
    state.apply(parse(line), lines++);
  }
  return { state, lines };
}

/** A line for the new session: the session it names (the metadata record, a `$set` of the id) set to `session`, any other as it was. */
function renamed(line: string, session: string): string {
  if (!line.includes('"sessionId"')) return line;
  const rec = parse(line);
  if (rec === null) return line;
  if (isMetadata(rec)) return JSON.stringify({ ...rec, sessionId: session });
  if (isObject(rec.$set) && typeof rec.$set.sessionId === 'string') return JSON.stringify({ ...rec, $set: { ...rec.$set, sessionId: session } });
  return line;
}

/**
 * Gemini CLI's session as it was at a checkpoint, for a new session `session`: the complete
 * lines captured (a half-written last one dropped); for a call inside a turn (`inTurn`: a
 * tool call), only those before the line where the turn's prompt (the last prompt Gemini
 * would load) first appeared. A cut there never parts a tool call from its result: a reply
 * and its calls' results are one message, and the turn before the prompt was over.
 */
export function cutGeminiSession(captured: TranscriptBytes, point: Pick<ConversationPoint, 'inTurn'>, session: string): SessionCut {
  const { state: whole, lines } = replay(captured);
  if (lines > 0 && !isSession(whole.metadata)) throw new SessionUnusable('has no session record (not a JSONL session of Gemini CLI)');
  if (whole.metadata.kind === 'subagent') throw new SessionUnusable("is a subagent's, which Gemini does not resume");
  let length = lines;
  if (point.inTurn) {
    const prompt = [...whole.messages.entries()].filter(([, message]) => message.prompt).at(-1);
    // No prompt loaded: nothing of the conversation comes before this turn.
    length = prompt ? (whole.firstLine.get(prompt[0]) ?? length) : 0;
  }
  const kept = length === lines ? whole : replay(captured, length).state;
  const messages = [...kept.messages.values()].filter((message) => message.resumable).length;
  if (messages === 0) return { content: [], messages };
  return { content: firstLines(captured, length, (line) => renamed(line, session)), messages };
}

/**
 * Whether a session file is session `session`'s (not a subagent's) and no message in it, in
 * any record, is one Gemini would resume for (its own rule): what a resume leaves beside the
 * session's own file. Stricter than Gemini's loader, which judges only what survives replay.
 */
export function nothingToResume(bytes: Buffer, session: string): boolean {
  const source = bufferTranscript(bytes);
  const { state } = replay(source);
  if (state.metadata.sessionId !== session || state.metadata.kind === 'subagent') return false;
  for (const line of source.lines()) {
    const rec = parse(line);
    if (rec === null) continue;
    const listed = isObject(rec.$set) && Array.isArray(rec.$set.messages) ? rec.$set.messages : Array.isArray(rec.messages) ? rec.messages : [];
    if ([rec, ...listed].filter(isMessage).some(isResumable)) return false;
  }
  return true;
}
