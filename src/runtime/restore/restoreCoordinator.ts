import type { ChangedSince } from '../checkpointing/checkpointTriggers.js';
import type { Notices } from '../session/notices.js';

/** What restoring needs of the agent: whether it works, a way to interrupt it, a wait for quiet. */
export interface AgentControl {
  readonly busy: boolean;
  interrupt(): void;
  waitForIdle(deadlineMs: number): Promise<void>;
}

/** How long a restore waits for a busy agent to stop after its Ctrl-C. */
const busyWaitMs = 5_000;

/**
 * Restores in a running session: the agent is stopped first if it is working, and the
 * file watcher is paused while the files change (see CheckpointTriggers.withWatcherPaused).
 */
export class RestoreCoordinator {
  constructor(
    private readonly agent: AgentControl,
    private readonly notices: Notices,
    private readonly pauseWatcher: <T>(work: (changed: ChangedSince) => Promise<T>) => Promise<T>,
  ) {}

  /**
   * Stops a busy agent before its files change under it: Ctrl-C, then waits for quiet (with
   * a deadline). Returns what to add to the restore's notice when the agent was still
   * working at the deadline: the restore goes ahead (the user asked for it, and the redo
   * point keeps what it replaces), but the agent may write over what it restored.
   */
  async interruptIfBusy(): Promise<string> {
    if (!this.agent.busy) return '';
    this.notices.say('the agent is busy: stopping it before restoring…', 'warning');
    this.agent.interrupt();
    await this.agent.waitForIdle(busyWaitMs);
    if (!this.agent.busy) return '';
    this.notices.say(`the agent is still busy after ${busyWaitMs / 1000} s: restoring anyway…`, 'warning');
    return ` while the agent was still busy (Ctrl-C did not stop it in ${busyWaitMs / 1000} s: it may write over them)`;
  }

  /** Runs a restore with the watcher paused, so its own writes are not taken for edits. */
  whileRestoring<T>(work: (changed: ChangedSince) => Promise<T>): Promise<T> {
    return this.pauseWatcher(work);
  }
}
