import { testMs } from './testOverride.js';

/**
 * Most of a hook payload kept (a Write of a huge file carries all of it): a longer one is read
 * through, and its head is what the label is read from (agents/payloadHead.ts).
 */
export const maxHookPayloadBytes = 64 * 1024 * 1024;

/**
 * How long a hook reads its payload (ms): an agent writes it at once, so a stdin still open
 * after this is not a payload (a test may set REWIND_TEST_HOOK_STDIN_MS). The hook goes on
 * with what came; hooks/rewind-hook.sh has the same budget, in whole seconds.
 */
export function hookStdinBudgetMs(env: NodeJS.ProcessEnv): number {
  return testMs(env, 'REWIND_TEST_HOOK_STDIN_MS') ?? 10_000;
}
