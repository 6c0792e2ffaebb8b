// Two sandboxes for each test, each with its own HOME, REWIND_HOME and config: two machines
// as far as Rewind can tell (`rewind export` on one, `rewind import` on the other).
import { afterEach, beforeEach } from 'vitest';
import { createSandbox, type Sandbox } from './tempRepo.js';

/** Makes the two sandboxes before each test (handed to `use`) and removes them after it. */
export function twoMachines(prefix: string, use: (here: Sandbox, there: Sandbox) => void): void {
  let made: Sandbox[] = [];
  beforeEach(() => {
    const [here, there] = (made = [createSandbox(`${prefix}here-`), createSandbox(`${prefix}there-`)]);
    use(here as Sandbox, there as Sandbox);
  });
  afterEach(async () => {
    for (const sandbox of made) await sandbox.cleanup();
    made = [];
  });
}
