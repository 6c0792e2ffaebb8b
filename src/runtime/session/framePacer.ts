/**
 * Frame pacing: output after a quiet spell, or after a key, is drawn almost at once (typing
 * feels direct), while a flood of output is drawn about 15 times a second: drawing a frame
 * costs the same whatever scrolled past in between, and nothing the agent wrote is lost (the
 * emulated screen has it all).
 *
 * A burst starts with the first frame asked for after a quiet spell, or with a key sent to
 * the agent; its first few frames are quick. Only output that keeps coming past them is a
 * flood. An agent may answer a key in more than one write a few ms apart (Codex: an empty
 * synchronized update at once, the echo some 25 ms later): a frame drawn for the first must
 * not put the echo behind the flood pace.
 *
 * A frame due while the agent is in the middle of a synchronized update (DEC mode 2026) waits
 * for the update's end (the next request after it), as terminals that support the mode do, but
 * at most `hold.ms`: an agent that never ends an update (it crashed half-way) is drawn anyway,
 * and that update holds no frame again.
 */
export class FramePacer {
  private timer: NodeJS.Timeout | undefined;
  private lastFrame = -Infinity;
  private burstStart = -Infinity;
  /** Quick frames left in the current burst. */
  private burstFrames = 0;
  /** Stopped for good: the app is leaving its screen, and a frame drawn now would land on the user's. */
  private stopped = false;
  /** The timer waits for a synchronized update to end (or for its deadline), not for the pace. */
  private holding = false;
  /** The update a frame waits for, and until when at most. */
  private held: { update: number; until: number } | undefined;
  /** The last update whose deadline passed: it holds no more frames. */
  private timedOut: number | undefined;

  constructor(
    private readonly draw: () => void,
    private readonly quickMs = 2,
    private readonly floodMs = 66,
    /** A burst's quick frames: at most this many, within this long of its start. */
    private readonly burst = { frames: 4, ms: 50 },
    private readonly now: () => number = Date.now,
    /** The synchronized update in progress (see ScreenModel.synchronizedUpdate), and how long it may hold a frame. */
    private readonly hold: { update: () => number | undefined; ms: number } = { update: () => undefined, ms: 0 },
  ) {}

  /** Asks for a frame: drawn once, at the pace, however often it is asked for meanwhile. */
  request(): void {
    if (this.stopped) return;
    if (this.timer) {
      // A frame waiting for an update's end: what changed may be that end.
      if (!this.holding) return;
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const now = this.now();
    if (now - this.lastFrame > this.floodMs * 2) this.startBurst(now);
    const quick = this.burstFrames > 0 && now - this.burstStart < this.burst.ms;
    const delay = quick ? this.quickMs : Math.max(this.quickMs, this.floodMs - (now - this.lastFrame));
    if (quick) this.burstFrames -= 1;
    this.holding = false;
    this.timer = setTimeout(() => this.due(), delay);
  }

  /** A frame is due: drawn now, unless a synchronized update holds it. */
  private due(): void {
    this.timer = undefined;
    const now = this.now();
    const update = this.hold.update();
    if (update !== undefined && update !== this.timedOut) {
      if (this.held?.update !== update) this.held = { update, until: now + this.hold.ms };
      if (now < this.held.until) {
        this.holding = true;
        this.timer = setTimeout(() => this.due(), this.held.until - now);
        return;
      }
      this.timedOut = update;
    }
    this.holding = false;
    this.lastFrame = now;
    this.draw();
  }

  /**
   * A key went to the agent: what it draws in answer starts a burst. A frame already waiting
   * at the flood pace is drawn quickly instead.
   */
  keySent(): void {
    this.startBurst(this.now());
    if (this.timer && !this.holding) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.request();
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private startBurst(now: number): void {
    this.burstStart = now;
    this.burstFrames = this.burst.frames;
  }
}
