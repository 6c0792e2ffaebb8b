// The waits a test shortens and the clock it moves, as the variables below say: what
// seams.mjs gives a built `rewind`, and what helpers/io.ts gives `rewind` run in-process.
// - REWIND_TEST_HOOK_STDIN_MS, REWIND_TEST_PROGRESS_AFTER_MS, REWIND_TEST_LOCK_WAIT_MS,
//   REWIND_TEST_COLOUR_QUERY_MS, REWIND_TEST_NO_HOOKS_MS=<ms>: the hook's stdin budget, the
//   delay before progress shows, the project lock's wait, the outer terminal's time to tell
//   its colours, an agent's time to make its first hook call after the first prompt.
// - REWIND_TEST_NOW=<ISO time>: the clock, fixed there.

function ms(env, name) {
  const value = env[name];
  const parsed = Number(value ?? '');
  return value !== undefined && value.trim() !== '' && Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

/** `{ waits, now }` for src/shared/seams.ts's Injected, from `env`. */
export function shortened(env) {
  const waits = Object.fromEntries(
    [
      ['hook-stdin', ms(env, 'REWIND_TEST_HOOK_STDIN_MS')],
      ['progress-after', ms(env, 'REWIND_TEST_PROGRESS_AFTER_MS')],
      ['lock-wait', ms(env, 'REWIND_TEST_LOCK_WAIT_MS')],
      ['colour-query', ms(env, 'REWIND_TEST_COLOUR_QUERY_MS')],
      ['no-hooks', ms(env, 'REWIND_TEST_NO_HOOKS_MS')],
    ].filter(([, value]) => value !== undefined),
  );
  const now = Date.parse(env.REWIND_TEST_NOW ?? '');
  return { waits, ...(Number.isFinite(now) ? { now } : {}) };
}
