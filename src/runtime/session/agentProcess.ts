import type { PtyExit, PtySession } from '../../pty/ptySession.js';

/**
 * The agent's process in the pane: the pty it runs in, which a conversation restore replaces
 * with the agent started again, resumed. Output, keys and sizes go to whichever runs now; the
 * session ends when the agent running at that moment exits, not one replaced on purpose.
 */
export class AgentProcess {
  private current: PtySession;
  private readonly listeners: ((data: Buffer) => void)[] = [];
  /** Stop the listeners of the agent running now. */
  private unsubscribes: (() => void)[] = [];
  private replacing: Promise<unknown> | undefined;

  constructor(pty: PtySession) {
    this.current = pty;
  }

  /** Calls `listener` with the output of the agent running now, and of each that replaces it. */
  onData(listener: (data: Buffer) => void): void {
    this.listeners.push(listener);
    this.unsubscribes.push(this.current.onData(listener));
  }

  write(data: string | Uint8Array): void {
    this.current.write(data);
  }

  resize(cols: number, rows: number): void {
    this.current.resize(cols, rows);
  }

  terminate(): Promise<PtyExit> {
    return this.current.terminate();
  }

  /**
   * Asks the agent to leave as its user would: `key` (its own way out, Ctrl-C for most: a
   * first press clears a draft or interrupts a turn, the next ones quit) pressed again every
   * `everyMs`, `presses` times, until it exits; then a moment more for it to finish. Resolves
   * once it exited or that is over (the caller ends it then). No key: at once. An agent ended
   * by SIGHUP instead dies without leaving its full screen or saying how to resume (Codex).
   */
  async askToLeave(key: string | undefined, presses = 4, everyMs = 300, lastMs = 1_500): Promise<void> {
    if (key === undefined) return;
    let gone = false;
    const exited = this.current.exited.then(() => {
      gone = true;
    });
    let timer: NodeJS.Timeout | undefined;
    const after = (ms: number) => Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
    for (let press = 0; press < presses && !gone; press++) {
      this.current.write(key);
      await after(everyMs);
    }
    if (!gone) await after(lastMs);
  }

  /** Settles with the exit of the agent running when it exits (all its output handed on). */
  get exited(): Promise<PtyExit> {
    return (async () => {
      for (;;) {
        const pty = this.current;
        const exit = await pty.exited;
        if (this.replacing) await this.replacing.catch(() => undefined);
        if (pty === this.current) return exit;
      }
    })();
  }

  /**
   * Starts the agent again with `start` and, once it runs, stops the one running now (the new
   * one first: if it cannot start, the old one goes on). Resolves when the old one is gone.
   */
  async replace(start: () => Promise<PtySession>): Promise<void> {
    const work = (async () => {
      const next = await start();
      const old = this.current;
      // What the old one still writes as it goes is not shown over the new one.
      for (const unsubscribe of this.unsubscribes) unsubscribe();
      this.current = next;
      this.unsubscribes = this.listeners.map((listener) => next.onData(listener));
      await old.terminate();
    })();
    this.replacing = work;
    try {
      await work;
    } finally {
      if (this.replacing === work) this.replacing = undefined;
    }
  }
}
