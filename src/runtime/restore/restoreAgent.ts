// What a restore in a running session needs of its agent: whether it works and a way to stop
// it first (RestoreCoordinator), and its notice kept until the agent is back at its prompt.
import type { ActivityTracker } from '../checkpointing/activity.js';
import type { AgentControl } from './restoreCoordinator.js';

/** The agent as a restore sees it: busy or not from `activity`, interrupted by `interrupt`. */
export function agentControlOf(activity: ActivityTracker, interrupt: () => void): AgentControl {
  return {
    get busy() {
      return activity.busy();
    },
    interrupt,
    waitForIdle: (ms: number) => activity.waitForIdle(ms),
  };
}

/**
 * The notice a restore ends with (what was restored, how to undo it) stays until the agent is
 * back at its prompt: an agent started again (a conversation restore) may take 12 s or more
 * to show it, longer than a notice lasts, and the user looks back only then.
 */
export class RestoreNoticeHold {
  private restoring = false;

  constructor(private readonly atPrompt: () => boolean) {}

  /** A restore began: the files change, or the agent is started again. */
  began(): void {
    this.restoring = true;
  }

  /** For a notice said now: while it must stay (the first after a restore began), or undefined. */
  holdForNext(): (() => boolean) | undefined {
    if (!this.restoring) return undefined;
    this.restoring = false;
    return () => !this.atPrompt();
  }
}
