/**
 * Busy or idle for agents without hooks: output in the last `quietMs` means busy. The
 * agent adapters (later) replace this with the agents' own busy/idle events.
 */
export class ActivityTracker {
  private lastOutput = 0;

  constructor(private readonly quietMs = 1_500) {}

  sawOutput(now = Date.now()): void {
    this.lastOutput = now;
  }

  busy(now = Date.now()): boolean {
    return now - this.lastOutput < this.quietMs;
  }

  /** How long until busy() may turn false (for a timer), or 0 when already idle. */
  untilIdle(now = Date.now()): number {
    return Math.max(0, this.lastOutput + this.quietMs - now);
  }
}
