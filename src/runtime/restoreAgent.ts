// What a restore in a running session needs of its agent: whether it works and a way to stop
// it first (RestoreCoordinator).
import type { ActivityTracker } from './activity.js';
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
