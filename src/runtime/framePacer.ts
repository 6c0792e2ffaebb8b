/**
 * Frame pacing: the first change after a quiet spell is drawn almost at once (typing feels
 * direct), while a flood of output is drawn about 15 times a second: drawing a frame costs
 * the same whatever scrolled past in between, and nothing the agent wrote is lost (the
 * emulated screen has it all).
 */
export class FramePacer {
  private timer: NodeJS.Timeout | undefined;
  private lastFrame = 0;

  constructor(
    private readonly draw: () => void,
    private readonly quickMs = 8,
    private readonly floodMs = 66,
  ) {}

  /** Asks for a frame: drawn once, at the pace, however often it is asked for meanwhile. */
  request(): void {
    if (this.timer) return;
    const sinceLast = Date.now() - this.lastFrame;
    const delay = sinceLast > this.floodMs * 2 ? this.quickMs : Math.max(this.quickMs, this.floodMs - sinceLast);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastFrame = Date.now();
      this.draw();
    }, delay);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
