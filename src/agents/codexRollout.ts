// Codex's rollout (its session file, FACTS.md: one JSON object a line, `{timestamp, type,
// payload}`, the first a `session_meta`) cut back to a checkpoint, as a NEW session: the
// lines of the turns that had ended before the step's turn began, the session's id replaced
// by a new one in every line (the file's name carries it too). The original is never touched.
//
// Which turn a step is in: Codex's TUI writes its rollout late (at a hook, the turn may not
// be in the file yet) and gives every hook of a session the same turn_id, so neither the
// length captured nor the turn id says it. What does: a tool call's id (its `call_id` in the
// file), and for a prompt, how many times its text had been sent before (the turn is the
// next one with that text). The anchor says which, in the point's `promptId`.
import type { ConversationPoint } from '../shared/conversation.js';

/** A rollout line the cut cannot read: nothing is written. */
export class RolloutUnreadable extends Error {
  constructor(line: number) {
    super(`line ${line} of the Codex rollout is not JSON`);
    this.name = 'RolloutUnreadable';
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

const endsATurn = (line: Line) => line.type === 'event_msg' && (line.payload?.type === 'task_complete' || line.payload?.type === 'turn_aborted');
const startsATurn = (line: Line) => line.type === 'event_msg' && line.payload?.type === 'task_started';
const isMessage = (line: Line) => line.type === 'response_item' && line.payload?.type === 'message';

/** The text a user message line carries (its input_text parts), if it is one. */
function userText(line: Line): string | undefined {
  if (!isMessage(line) || line.payload?.role !== 'user' || !Array.isArray(line.payload.content)) return undefined;
  return (line.payload.content as { type?: unknown; text?: unknown }[]).filter((part) => part.type === 'input_text').map((part) => String(part.text)).join('');
}

function parse(bytes: Buffer): { raw: string[]; lines: Line[] } {
  const text = bytes.toString('utf8');
  const raw = text.slice(0, text.lastIndexOf('\n') + 1).split('\n').slice(0, -1);
  const lines = raw.map((line, index) => {
    try {
      const parsed = JSON.parse(line) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      return parsed as Line;
    } catch {
      throw new RolloutUnreadable(index + 1);
    }
  });
  return { raw, lines };
}

/** The line where the step's turn shows in `lines` (undefined: not there). */
function anchorLine(lines: readonly Line[], anchor: string, captured: readonly Line[]): number | undefined {
  if (anchor.startsWith('call:')) {
    const id = anchor.slice('call:'.length);
    const at = lines.findIndex((line) => line.type === 'response_item' && line.payload?.call_id === id);
    return at < 0 ? undefined : at;
  }
  if (anchor.startsWith('prompt:')) {
    const prompt = anchor.slice('prompt:'.length);
    const sentBefore = captured.filter((line) => userText(line) === prompt).length;
    const sent = lines.flatMap((line, index) => (userText(line) === prompt ? [index] : []));
    return sent[sentBefore];
  }
  const at = lines.findIndex((line) => JSON.stringify(line).includes(`"${anchor}"`));
  return at < 0 ? undefined : at;
}

export interface RolloutCut {
  content: Buffer;
  /** How many user and assistant messages it keeps (0: nothing to resume). */
  messages: number;
}

/**
 * The rollout before the turn the step at `point` is in, its session id (`point.session`)
 * replaced with `fresh`. `latest` (the rollout as it is now) is read for the anchor when the
 * capture does not hold it yet; without an anchor found, the cut goes back to the last turn
 * that had ended in what was captured.
 */
export function cutCodexRollout(captured: Buffer, point: Pick<ConversationPoint, 'promptId' | 'session'>, fresh: string, latest?: Buffer): RolloutCut {
  const then = parse(captured);
  let source = then;
  let at = point.promptId ? anchorLine(then.lines, point.promptId, then.lines) : undefined;
  if (at === undefined && point.promptId && latest) {
    const now = parse(latest);
    at = anchorLine(now.lines, point.promptId, then.lines);
    if (at !== undefined) source = now;
  }
  let before = at ?? source.lines.length;
  if (at !== undefined) while (before > 0 && !startsATurn(source.lines[before] as Line)) before--;
  let end = before - 1;
  while (end >= 0 && !endsATurn(source.lines[end] as Line)) end--;
  const kept = source.raw.slice(0, end + 1);
  const messages = source.lines.slice(0, end + 1).filter(isMessage).length;
  const old = point.session;
  const out = old ? kept.map((line) => line.replaceAll(old, fresh)) : kept;
  return { content: Buffer.from(end < 0 ? '' : out.map((line) => `${line}\n`).join(''), 'utf8'), messages: end < 0 ? 0 : messages };
}
