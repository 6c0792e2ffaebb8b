/** Whether bytes written to the agent are an interrupt key on their own: a lone Esc, or Ctrl-C. */
export function isInterrupt(data: string | Uint8Array): boolean {
  const byte = typeof data === 'string' ? (data.length === 1 ? data.charCodeAt(0) : -1) : data.length === 1 ? data[0] : -1;
  return byte === 0x1b || byte === 0x03;
}

/**
 * Busy or idle for agents without hooks: output in the last `quietMs` means busy, except
 * output that answers a key we forwarded within the last `echoMs` (the agent echoing what
 * was typed, a shell drawing its next prompt after Enter, a TUI redrawing its input box):
 * that is the agent answering the user, not working. An agent whose hooks say when it
 * works (UserPromptSubmit … Stop) is busy or idle as they last said instead, until the user
 * interrupts it (Esc, Ctrl-C): not every agent's events say so (Gemini CLI fires no
 * AfterAgent for a cancelled turn, Claude Code only a Notification a minute later), so after
 * an interrupt it is busy only while its output still flows, until its next event.
 * Such an agent is idle from its start until its first event or key: what it draws as it
 * starts (or is started again, resumed) is its screen, not work (Gemini CLI draws for
 * seconds and says nothing until its SessionStart).
 */
export class ActivityTracker {
  private lastWork = -Infinity;
  private lastKey = -Infinity;
  private lastOutput = -Infinity;
  /** Pieces of output seen, and how many had been seen when the last key was sent. */
  private outputs = 0;
  private outputsAtKey = 0;
  /** What the agent's own events last said (undefined: none yet, output decides). */
  private reported: boolean | undefined;
  /** When the user last interrupted an agent its events called busy (undefined: not since they last spoke). */
  private interruptedAt: number | undefined;
  /** No event and no key since the agent was started: it shows its start screen. */
  private starting = true;
  /** Whether it was started again (a restore), and the pieces of output seen then. */
  private restarted = false;
  private outputsAtStart = 0;

  /** `eventsSayWork`: the agent's hooks say when it works (its adapter's activity is 'hooks'). */
  constructor(
    private readonly quietMs = 1_500,
    private readonly echoMs = 200,
    private readonly eventsSayWork = false,
  ) {}

  /** A key (or an interrupt of ours) was written to the agent. */
  keySent(now = Date.now()): void {
    this.lastKey = now;
    this.outputsAtKey = this.outputs;
    this.starting = false;
  }

  sawOutput(now = Date.now()): void {
    this.outputs += 1;
    this.lastOutput = now;
    if (now - this.lastKey > this.echoMs) this.lastWork = now;
  }

  /** An interrupt (Esc, Ctrl-C) was written to the agent. */
  interruptSent(now = Date.now()): void {
    if (this.reported === true) this.interruptedAt = now;
  }

  /** The agent's own event says it works (true) or waits (false). */
  report(busy: boolean): void {
    this.reported = busy;
    this.interruptedAt = undefined;
    this.starting = false;
  }

  /**
   * The agent was started again: what the one before said of itself no longer holds. One
   * whose events say when it works is idle; any other is busy until its output is quiet.
   */
  agentStarted(now = Date.now()): void {
    this.reported = undefined;
    this.interruptedAt = undefined;
    this.lastWork = now;
    this.starting = true;
    this.restarted = true;
    this.outputsAtStart = this.outputs;
  }

  busy(now = Date.now()): boolean {
    if (this.interruptedAt !== undefined) return now - Math.max(this.lastOutput, this.interruptedAt) < this.quietMs;
    if (this.reported !== undefined) return this.reported;
    if (this.eventsSayWork && this.starting) return false;
    return now - this.lastWork < this.quietMs;
  }

  /**
   * Whether the agent is at its prompt: idle, and once started again, back (an event or a
   * key since, or its screen drawn and then quiet: `startQuietMs` for an agent whose events
   * would have said so, as Gemini CLI's and Claude Code's SessionStart do).
   */
  atPrompt(now = Date.now(), startQuietMs = 5_000): boolean {
    if (this.busy(now)) return false;
    if (!this.restarted || !this.starting) return true;
    return this.outputs > this.outputsAtStart && now - this.lastOutput >= (this.eventsSayWork ? startQuietMs : this.quietMs);
  }

  /** How long until busy() may turn false (for a timer), or 0 when already idle. */
  untilIdle(now = Date.now()): number {
    if (this.interruptedAt !== undefined) return Math.max(0, Math.max(this.lastOutput, this.interruptedAt) + this.quietMs - now);
    // Busy by the agent's word: look again in a moment.
    if (this.reported !== undefined) return this.reported ? 250 : 0;
    if (this.eventsSayWork && this.starting) return 0;
    return Math.max(0, this.lastWork + this.quietMs - now);
  }

  /** Resolves once busy() is false, or after `deadlineMs`. */
  async waitForIdle(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (this.busy() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.untilIdle() + 5, deadline - Date.now())));
    }
  }

  /** How long the agent's output has been quiet (undefined: it has written nothing yet). */
  outputQuietFor(now = Date.now()): number | undefined {
    return this.outputs === 0 ? undefined : now - this.lastOutput;
  }

  /** When the agent last wrote something that was not an answer to a key (-Infinity: never). */
  get lastWorkAt(): number {
    return this.lastWork;
  }

  /**
   * How long to wait still for the agent's answer to the key sent last to be complete: it
   * came and has been quiet for `settleMs`, or the echo window is over (an agent that does
   * not echo). 0: no need to wait.
   */
  untilEchoed(settleMs: number, now = Date.now()): number {
    const deadline = this.lastKey + this.echoMs;
    if (now >= deadline) return 0;
    if (this.outputs === this.outputsAtKey) return Math.min(settleMs, deadline - now);
    const quiet = now - this.lastOutput;
    return quiet >= settleMs ? 0 : Math.min(settleMs - quiet, deadline - now);
  }
}
