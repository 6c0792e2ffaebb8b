// Codex's rollout (its session file, FACTS.md: one JSON object a line, `{timestamp, type,
// payload}`, the first a `session_meta`) cut back to a checkpoint, as a NEW session: the
// lines of the turns that had ended before the step's turn began, the session's id replaced
// by a new one in every line (the file's name carries it too). The original is never touched.
import type { ConversationPoint } from '../shared/conversation.js';

/** A rollout line the cut cannot read: nothing is written. */
export class RolloutUnreadable extends Error {
  constructor(line: number) {
    super(`line ${line} of the Codex rollout is not JSON`);
    this.name = 'RolloutUnreadable';
  }
}

type Line = { type?: unknown; payload?: { type?: unknown } };

/** Where a turn ends: its task is complete, or was aborted (an interrupt). */
const endsATurn = (line: Line) => line.type === 'event_msg' && (line.payload?.type === 'task_complete' || line.payload?.type === 'turn_aborted');

export interface RolloutCut {
  content: Buffer;
  /** How many user and assistant messages it keeps (0: nothing to resume). */
  messages: number;
}

/**
 * The rollout as it was before the turn a step is in (`point.promptId` holds the turn's id,
 * from the hook's `turn_id`): every line up to the end of the last turn that ended before it
 * (or before the end of what was captured, without a turn id), its session id (`session`,
 * the old one) replaced with `fresh` everywhere.
 */
export function cutCodexRollout(captured: Buffer, point: Pick<ConversationPoint, 'promptId' | 'session'>, fresh: string): RolloutCut {
  const text = captured.toString('utf8');
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
  const turnStart = point.promptId ? raw.findIndex((line) => line.includes(`"${point.promptId}"`)) : -1;
  const before = turnStart >= 0 ? turnStart : lines.length;
  let end = -1;
  for (let i = before - 1; i >= 0; i--) {
    if (endsATurn(lines[i] as Line)) {
      end = i;
      break;
    }
  }
  const kept = raw.slice(0, end + 1);
  const messages = lines.slice(0, end + 1).filter((line) => line.type === 'response_item' && line.payload?.type === 'message').length;
  const old = point.session;
  const out = old ? kept.map((line) => line.replaceAll(old, fresh)) : kept;
  return { content: Buffer.from(end < 0 ? '' : out.map((line) => `${line}\n`).join(''), 'utf8'), messages: end < 0 ? 0 : messages };
}
