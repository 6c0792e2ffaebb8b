import { oneLine } from '../../shared/format.js';

export type Tone = 'info' | 'warning' | 'error';

export interface Notice {
  text: string;
  tone: Tone;
}

/** A notice as it was said, whole (the status line may have shown it shortened). */
export interface SaidNotice extends Notice {
  time: Date;
}

/** How many notices the session keeps, whole, for /checkpoints. */
const keptNotices = 10;

/** How often a held notice looks whether it still must stay. */
const holdPollMs = 250;
/** The longest a notice is held (an agent started again that never comes back): then it fades as any other. */
const holdMaxMs = 60_000;

/**
 * The status line's notices: one line that fades after a few seconds, and the problems of
 * the session (each said once as a notice, and kept for /checkpoints). A notice can be held
 * (a restore's, until the agent is back at its prompt): it fades only that long after.
 */
export class Notices {
  private notice: (Notice & { until: number; held?: () => boolean; holdEnds: number }) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly problemList: string[] = [];
  private readonly saidList: SaidNotice[] = [];

  constructor(
    private readonly changed: () => void,
    private readonly shownMs = 6_000,
  ) {}

  /**
   * A one-line notice in the status line that fades after a few seconds; with `heldWhile`,
   * only that long after `heldWhile()` turned false (a minute at most).
   */
  say(text: string, tone: Tone = 'info', shownMs = this.shownMs, heldWhile?: () => boolean): void {
    // One row: a git error's line breaks written raw would break the screen.
    const now = Date.now();
    this.saidList.push({ text: oneLine(text), tone, time: new Date(now) });
    if (this.saidList.length > keptNotices) this.saidList.shift();
    this.notice = { text: oneLine(text), tone, until: now + shownMs, ...(heldWhile ? { held: heldWhile } : {}), holdEnds: now + holdMaxMs };
    clearTimeout(this.timer);
    if (heldWhile) this.watchHold(shownMs);
    else this.timer = setTimeout(() => this.changed(), shownMs + 10);
    this.changed();
  }

  /** While the notice shown is held, looks again in a moment; once it is not, it fades `shownMs` later. */
  private watchHold(shownMs: number): void {
    const notice = this.notice;
    if (!notice?.held) return;
    const now = Date.now();
    if (now < notice.holdEnds && notice.held()) {
      this.timer = setTimeout(() => this.watchHold(shownMs), holdPollMs);
      return;
    }
    delete notice.held;
    notice.until = now + shownMs;
    this.timer = setTimeout(() => this.changed(), shownMs + 10);
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

  /** The last notices said, oldest first, whole: what a status line too narrow for them left out is there. */
  get said(): readonly SaidNotice[] {
    return this.saidList;
  }

  /** Problems met this session (opening checkpoints, starting the triggers, config.json). */
  get problems(): readonly string[] {
    return this.problemList;
  }

  /** The notice to show now, if one is. */
  current(now = Date.now()): Notice | undefined {
    return this.notice && (this.notice.held || this.notice.until > now) ? { text: this.notice.text, tone: this.notice.tone } : undefined;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
