// For code a test runs in its own process: what test/helpers/seams.mjs installs in a built
// `rewind` (src/shared/seams.ts), installed here until the returned function takes it back.
import type { Injected } from '../../src/shared/seams.js';

const key = Symbol.for('rewind.injected');
type Holder = { [key]?: Injected };

export function injectInProcess(injected: Injected): () => void {
  const holder = globalThis as Holder;
  const before = holder[key];
  holder[key] = { ...before, ...injected };
  return () => {
    holder[key] = before;
  };
}
