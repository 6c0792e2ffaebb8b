import { waitMs } from './seams.js';

/**
 * Most of a hook payload kept (a Write of a huge file carries all of it): a longer one is read
 * through, and its head is what the label is read from (agents/payloadHead.ts).
 */
export const maxHookPayloadBytes = 64 * 1024 * 1024;

/**
 * How long a hook reads its payload (ms): an agent writes it at once, so a stdin still open
 * after this is not a payload. The hook goes on with what came; the app gives its hook client
 * (hooks/rewind-hook.sh) the same budget, in its channel's `pid` entry.
 */
export function hookStdinBudgetMs(): number {
  return waitMs('hook-stdin', 10_000);
}
