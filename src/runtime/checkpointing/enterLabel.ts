import { setTimeout as sleep } from 'node:timers/promises';
import type { CursorLine, ScreenModel } from '../../pty/screen.js';
import type { ActivityTracker } from './activity.js';
import { oneLine } from '../../shared/format.js';

/** How long the agent's answer to a key must have been quiet before an Enter reads the line. */
const echoSettleMs = 20;

/** Blanks and box-drawing characters (U+2500-U+257F): the borders of a TUI's input box. */
const edges = /^[\s\u2500-\u257f]+|[\s\u2500-\u257f]+$/gu;

/** What the screen showed of a line when the user started typing it, and at its Enter. */
export interface LineOnScreen {
  /** The cursor line's part left of the cursor before the first key of the line: the prompt. */
  prompt: string | undefined;
  /** The cursor line at the Enter. */
  atEnter: CursorLine;
  /** The agent wrote output that answered no key while the line was typed (it was busy, or drew its prompt late). */
  outputMeanwhile: boolean;
}

/**
 * The label of an Enter checkpoint: the line as the screen shows it at the Enter (history
 * recalled with Up, edits in the middle of the line, completions), minus the prompt that was
 * there before the user typed, blanks and input-box borders trimmed. `typed` (the keys typed
 * since the last Enter, which knows nothing of cursor moves) stands in when the screen gives
 * nothing usable: no line typed, a line that no longer starts with its prompt (the screen
 * was redrawn, or its start scrolled away), an empty one, or one the agent has not finished
 * echoing (it shows only the start of what was typed).
 */
export function enterLabel(screen: LineOnScreen, typed: string): string {
  const fallback = typed.trim();
  const { prompt, atEnter } = screen;
  if (prompt === undefined || !atEnter.whole || !atEnter.text.startsWith(prompt.trimEnd())) return fallback;
  const shown = oneLine(atEnter.text.slice(prompt.length)).replace(edges, '');
  if (shown === '') return fallback;
  if (fallback !== shown && fallback.startsWith(shown)) return fallback;
  // Output other than echoes while typing (typeahead during a command, a prompt drawn after
  // the first key): what the screen shows before the typed text may be that output.
  if (screen.outputMeanwhile && fallback !== '' && shown.endsWith(fallback) && shown !== fallback) return fallback;
  return shown;
}

/**
 * The labels of a session's Enters: notes the prompt when a line starts (before its first
 * key reaches the agent), and at the Enter reads the line from the screen once the agent has
 * answered the keys typed just before it (bounded: an agent that does not echo is not
 * waited for long).
 */
export class EnterLabels {
  private start: { prompt: string; at: number } | undefined;

  constructor(
    private readonly screen: ScreenModel,
    private readonly activity: ActivityTracker,
  ) {}

  /** The first key of a line is about to reach the agent. */
  lineStarted(): void {
    this.start = { prompt: this.screen.cursorLine().beforeCursor, at: Date.now() };
  }

  /** The label for an Enter pressed now; `typed` is what was typed since the last one. */
  async atEnter(typed: string): Promise<string> {
    for (let wait = this.activity.untilEchoed(echoSettleMs); wait > 0; wait = this.activity.untilEchoed(echoSettleMs)) {
      await sleep(wait);
      // Output that came in meanwhile is read in the I/O poll after the timer: take it too.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.screen.flush();
    const start = this.start;
    this.start = undefined;
    const outputMeanwhile = start !== undefined && this.activity.lastWorkAt >= start.at;
    return enterLabel({ prompt: start?.prompt, atEnter: this.screen.cursorLine(), outputMeanwhile }, typed);
  }
}
