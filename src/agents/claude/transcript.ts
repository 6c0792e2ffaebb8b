// Claude Code's transcript cut back to a checkpoint (docs/agents.md: one JSON object per line,
// messages chained by uuid/parentUuid, a reply that both says and calls spread over lines
// sharing message.id, tool results in user lines). The cut is made on a copy: a new
// session's file, the original never touched. The transcript is read line by line (it may
// be larger than memory allows): once to find the cut, keeping only what finding it needs of
// each line, once more as the new file is written.
import type { ConversationPoint } from '../../shared/conversation.js';
import { firstLines, type TranscriptBytes } from '../../shared/transcriptLines.js';
import { objectLine } from '../jsonLines.js';

type Line = Record<string, unknown> & { type?: unknown; message?: unknown };

/** A transcript line the cut cannot read: the capture is damaged, nothing is written. */
export class TranscriptUnreadable extends Error {
  constructor(line: number) {
    super(`line ${line} of the transcript is not JSON`);
    this.name = 'TranscriptUnreadable';
  }
}

export interface TranscriptCut {
  /** The new transcript, made as it is read (nothing when no message is left: the conversation starts afresh). */
  content: Iterable<string>;
  /** How many user and assistant messages it keeps. */
  messages: number;
}

function blocks(line: Line): Record<string, unknown>[] {
  const content = (line.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? content.filter((block): block is Record<string, unknown> => typeof block === 'object' && block !== null) : [];
}

const isMessage = (line: Line) => (line.type === 'user' || line.type === 'assistant') && line.isSidechain !== true;
const messageId = (line: Line) => (line.message as { id?: unknown } | undefined)?.id;
const toolUses = (line: Line) => (line.type === 'assistant' ? blocks(line).filter((block) => block.type === 'tool_use').map((block) => String(block.id)) : []);
const toolResults = (line: Line) => (line.type === 'user' ? blocks(line).filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id)) : []);

/** A user line the user typed (not a tool result, not one Claude adds: meta, compaction summary). */
function isPrompt(line: Line): boolean {
  return line.type === 'user' && isMessage(line) && line.isMeta !== true && line.isCompactSummary !== true && toolResults(line).length === 0;
}

/** Whether the last message is an answer that ended its turn (not a prompt, not a tool call or result). */
function endsATurn(lines: readonly Line[]): boolean {
  const last = [...lines].reverse().find(isMessage);
  return last === undefined || (last.type === 'assistant' && toolUses(last).length === 0);
}

/**
 * The kept lines' length once no tool call is left without its result (the API refuses
 * that): the cut moves back to before the reply (all lines of its message) holding the
 * first call whose result is not kept.
 */
function pairedLength(lines: readonly Line[], length: number): number {
  const results = new Set(lines.slice(0, length).flatMap(toolResults));
  const unpaired = lines.slice(0, length).findIndex((line) => isMessage(line) && toolUses(line).some((id) => !results.has(id)));
  if (unpaired < 0) return length;
  const id = messageId(lines[unpaired] as Line);
  let start = unpaired;
  while (start > 0 && id !== undefined && messageId(lines[start - 1] as Line) === id) start--;
  return start;
}

/**
 * Where the conversation at `point` ends, in lines: just before the user line that started
 * the turn (`promptId`), else at the end of what was captured; never inside a turn (back to
 * before its prompt), never between a tool call and its result.
 */
function cutLength(lines: readonly Line[], point: Pick<ConversationPoint, 'promptId'>): number {
  const prompt = point.promptId === undefined ? -1 : lines.findIndex((line) => isMessage(line) && line.type === 'user' && line.promptId === point.promptId);
  let length = prompt >= 0 ? prompt : lines.length;
  // A prompt its lines do not name yet (UserPromptSubmit comes before Claude writes it) starts
  // after the capture: all of it is before the turn, even when it ends with something no
  // turn answers (a local command's output, as /compact leaves). Only a transcript whose lines
  // carry no promptId (an older release) has its end guessed from the last prompt.
  const promptNotWritten = prompt < 0 && point.promptId !== undefined && lines.some((line) => isMessage(line) && typeof line.promptId === 'string');
  if (prompt < 0 && !promptNotWritten && !endsATurn(lines.slice(0, length))) {
    const lastPrompt = lines.slice(0, length).findLastIndex(isPrompt);
    if (lastPrompt >= 0) length = lastPrompt;
  }
  for (let before = -1; before !== length; ) {
    before = length;
    length = pairedLength(lines, length);
  }
  // The queue lines right before the cut announce the prompt that is cut off (its text too).
  while (length > 0 && (lines[length - 1] as Line).type === 'queue-operation') length--;
  return length;
}

/** What the cut needs of a line: its kind, its ids, and its content's tool calls and results (not their text). */
function slim(line: Line): Line {
  const { type, isSidechain, isMeta, isCompactSummary, promptId } = line;
  const message = line.message as { id?: unknown; content?: unknown } | undefined;
  const content = blocks(line)
    .filter((block) => block.type === 'tool_use' || block.type === 'tool_result')
    .map((block) => ({ type: block.type, id: block.id, tool_use_id: block.tool_use_id }));
  return { type, isSidechain, isMeta, isCompactSummary, promptId, message: { id: message?.id, content } };
}

/** A kept line for the new session: its `sessionId` / `session_id` set to it, every other byte as it was. */
function forSession(raw: string, session: string): string {
  if (!raw.includes('"sessionId"') && !raw.includes('"session_id"')) return raw;
  const line = JSON.parse(raw) as Line;
  if (!('sessionId' in line) && !('session_id' in line)) return raw;
  return JSON.stringify({ ...line, ...('sessionId' in line ? { sessionId: session } : {}), ...('session_id' in line ? { session_id: session } : {}) });
}

/**
 * Claude Code's transcript as it was at a checkpoint, for a new session `session`: the
 * complete lines captured (a half-written last one dropped) up to the cut, each line's
 * `sessionId` / `session_id` set to the new session (lines Claude applies only to their
 * own session, like `content-replacement`, stay in force), every other byte as it was.
 */
export function cutClaudeTranscript(captured: TranscriptBytes, point: Pick<ConversationPoint, 'promptId'>, session: string): TranscriptCut {
  const lines: Line[] = [];
  for (const raw of captured.lines()) lines.push(slim(objectLine<Line>(raw, lines.length, (line) => new TranscriptUnreadable(line))));
  const length = cutLength(lines, point);
  const messages = lines.slice(0, length).filter(isMessage).length;
  return { content: messages === 0 ? [] : firstLines(captured, length, (raw) => forSession(raw, session)), messages };
}
