import { oneLine } from '../shared/format.js';

export type Tone = 'info' | 'warning' | 'error';

export interface Notice {
  text: string;
  tone: Tone;
}

/**
 * The status line's notices: one line that fades after a few seconds, and the problems of
 * the session (each said once as a notice, and kept for /checkpoints).
 */
export class Notices {
  private notice: (Notice & { until: number }) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly problemList: string[] = [];

  constructor(
    private readonly changed: () => void,
    private readonly shownMs = 6_000,
  ) {}

  /** A one-line notice in the status line that fades after a few seconds. */
  say(text: string, tone: Tone = 'info', shownMs = this.shownMs): void {
    // One row: a git error's line breaks written raw would break the screen.
    this.notice = { text: oneLine(text), tone, until: Date.now() + shownMs };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed(), shownMs + 10);
    this.changed();
  }

  /** Takes back a notice that no longer holds (if it is still the one shown). */
  unsay(text: string): void {
    if (this.notice?.text !== oneLine(text)) return;
    this.notice = undefined;
    this.changed();
  }

  /** A problem the user must hear of: a notice now, and listed in /checkpoints. */
  problem(text: string): void {
    this.problemList.push(oneLine(text));
    this.say(text, 'warning');
  }

  /** Problems met this session (opening checkpoints, starting the triggers, config.json). */
  get problems(): readonly string[] {
    return this.problemList;
  }

  /** The notice to show now, if one is. */
  current(now = Date.now()): Notice | undefined {
    return this.notice && this.notice.until > now ? { text: this.notice.text, tone: this.notice.tone } : undefined;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
