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
