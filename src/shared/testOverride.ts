/** A duration (ms) a test sets through the environment variable `name`, if it set a valid one. */
export function testMs(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  const ms = Number(value ?? '');
  return value !== undefined && value.trim() !== '' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** The clock: the real one, unless a test sets REWIND_TEST_NOW (an ISO time) to move it. */
export function clockOf(env: NodeJS.ProcessEnv): () => number {
  const fixed = Date.parse(env.REWIND_TEST_NOW ?? '');
  return Number.isFinite(fixed) ? () => fixed : Date.now;
}
