/**
 * Resolves as soon as `predicate` holds; rejects with `what` if it still does not after
 * `timeoutMs`. Checks every few milliseconds: the deadline is a safety net, not a delay.
 */
export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Resolves with what `read` gives once it has not changed for `quietMs` (a screen a program
 * has stopped drawing: nothing on it says so); rejects with `what` after `timeoutMs`.
 */
export async function waitForQuiet(read: () => string, quietMs: number, timeoutMs: number, what: string): Promise<string> {
  let last = read();
  let since = Date.now();
  await waitFor(
    () => {
      const now = read();
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since >= quietMs;
    },
    timeoutMs,
    what,
  );
  return last;
}
