// Codex's rollout (its session file, docs/agents.md: one JSON object a line, `{timestamp, type,
// payload}`, the first a `session_meta`) cut back to a checkpoint, as a NEW session: the
// lines of the turns that had ended before the step's turn began, the session's id replaced
// by a new one in every line (the file's name carries it too). The original is never touched.
//
// Which turn a step is in: Codex's TUI writes its rollout late (at a hook, the turn may not
// be in the file yet) and gives every hook of a session the same turn_id, so neither the
// length captured nor the turn id says it. What does: a tool call's id (its `call_id` in the
// file), and for a prompt, how many times its text had been sent before (the turn is the
// next one with that text). The anchor says which, in the point's `promptId`.
//
// A rollout is read line by line (it may be larger than memory allows), keeping of each line
// only what finding the cut needs, and read again as the new file is written.
import type { ConversationPoint } from '../../shared/conversation.js';
import { firstLines, type TranscriptBytes } from '../../shared/transcriptLines.js';
import { objectLine } from '../jsonLines.js';

/** A rollout line the cut cannot read: nothing is written. */
export class RolloutUnreadable extends Error {
  constructor(line: number) {
    super(`line ${line} of the Codex rollout is not JSON`);
    this.name = 'RolloutUnreadable';
  }
}

/** The step is not in the rollout yet: nothing is written, the user may try again in a moment. */
export class StepNotWritten extends Error {
  constructor() {
    super('Codex has not written this step to its session file yet: try again in a moment, or restore the files only');
    this.name = 'StepNotWritten';
  }
}

type Line = { type?: unknown; payload?: { type?: unknown; role?: unknown; content?: unknown; call_id?: unknown } };

/** Where a step's turn is found: the tool call's id, or a prompt's text (`prompt:<text>`). */
export function callAnchor(callId: string): string {
  return `call:${callId}`;
}
export function promptAnchor(prompt: string): string {
  return `prompt:${prompt}`;
}

const isMessage = (line: Line) => line.type === 'response_item' && line.payload?.type === 'message';

/** The text a user message line carries (its input_text parts), if it is one. */
function userText(line: Line): string | undefined {
  if (!isMessage(line) || line.payload?.role !== 'user' || !Array.isArray(line.payload.content)) return undefined;
  return (line.payload.content as { type?: unknown; text?: unknown }[]).filter((part) => part.type === 'input_text').map((part) => String(part.text)).join('');
}

/** A prompt the user sent (not the context blocks Codex sends as user messages: `<environment_context>`…). */
const isPrompt = (line: Line) => {
  const text = userText(line);
  return text !== undefined && !text.trimStart().startsWith('<');
};

/** What makes a conversation: the user's prompts and the assistant's messages. */
const isExchange = (line: Line) => isPrompt(line) || (isMessage(line) && line.payload?.role === 'assistant');

/** Lines a turn starts with before its prompt (its start, its context, settings applied for it). */
const opensATurn = (line: Line) => line.type === 'turn_context' || line.type === 'world_state' || (line.type === 'event_msg' && (line.payload?.type === 'task_started' || line.payload?.type === 'thread_settings_applied'));

/** What finding the cut needs of a line: its kinds, its call id, and a user message's text parts. */
function slim(line: Line): Line {
  const payload = line.payload;
  const text = userText(line);
  return { type: line.type, payload: { type: payload?.type, role: payload?.role, call_id: payload?.call_id, ...(text === undefined ? {} : { content: [{ type: 'input_text', text }] }) } };
}

function parse(source: TranscriptBytes): { source: TranscriptBytes; lines: Line[] } {
  const lines: Line[] = [];
  for (const raw of source.lines()) lines.push(slim(objectLine<Line>(raw, lines.length, (line) => new RolloutUnreadable(line))));
  return { source, lines };
}

/** The line where the step shows in `lines` (undefined: not there). */
function anchorLine(lines: readonly Line[], anchor: string, captured: readonly Line[]): number | undefined {
  if (anchor.startsWith('call:')) {
    const id = anchor.slice('call:'.length);
    const at = lines.findIndex((line) => line.type === 'response_item' && line.payload?.call_id === id);
    return at < 0 ? undefined : at;
  }
  const prompt = anchor.slice('prompt:'.length);
  const sentBefore = captured.filter((line) => userText(line) === prompt).length;
  return lines.flatMap((line, index) => (userText(line) === prompt ? [index] : []))[sentBefore];
}

export interface RolloutCut {
  /** The new rollout, made as it is read (nothing when no message is kept). */
  content: Iterable<string>;
  /** How many user and assistant messages it keeps (0: nothing to resume). */
  messages: number;
}

/**
 * The rollout before the turn the step at `point` is in: cut right before that turn's prompt
 * (and the lines that open the turn), its session id (`point.session`) replaced with `fresh`.
 * The step is found by its anchor, in what was captured or else in `latest` (the rollout as
 * it is now); without an anchor (an older payload), the turn is the last one captured,
 * unless it had ended with the assistant's answer.
 */
export function cutCodexRollout(captured: TranscriptBytes, point: Pick<ConversationPoint, 'promptId' | 'session'>, fresh: string, latest?: TranscriptBytes): RolloutCut {
  const then = parse(captured);
  const anchor = point.promptId && /^(call|prompt):/.test(point.promptId) ? point.promptId : undefined;
  let source = then;
  let at = anchor ? anchorLine(then.lines, anchor, then.lines) : undefined;
  if (at === undefined && anchor && latest) {
    const now = parse(latest);
    at = anchorLine(now.lines, anchor, then.lines);
    if (at !== undefined) source = now;
  }
  // Not written yet (the TUI writes late): a cut by guess could start the agent afresh by mistake.
  if (at === undefined && anchor) throw new StepNotWritten();
  const { lines } = source;
  let cut: number;
  if (at !== undefined) {
    cut = at;
    while (cut >= 0 && !isPrompt(lines[cut] as Line)) cut--;
  } else {
    const last = lines.findLastIndex(isExchange);
    cut = last >= 0 && !isPrompt(lines[last] as Line) && (lines[last] as Line).payload?.role === 'assistant' && !lines.slice(last + 1).some((line) => line.type === 'response_item') ? lines.length : lines.findLastIndex(isPrompt);
  }
  if (cut < 0) cut = 0;
  while (cut > 0 && opensATurn(lines[cut - 1] as Line)) cut--;
  const messages = lines.slice(0, cut).filter(isExchange).length;
  const old = point.session;
  return { content: messages === 0 ? [] : firstLines(source.source, cut, (line) => (old ? line.replaceAll(old, fresh) : line)), messages };
}
