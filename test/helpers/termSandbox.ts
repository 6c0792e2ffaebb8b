// A sandbox per test for end-to-end tests of the app in a pty: the app started in it is
// killed and waited for after the test, then the sandbox is removed.
import { afterEach, beforeEach } from 'vitest';
import { startRewind, type PtyOptions, type TermSession } from './term.js';
import { createSandbox, type Sandbox } from './tempRepo.js';

export function termSandbox(prefix: string): { sandbox(): Sandbox; start(args: readonly string[], options: PtyOptions): TermSession } {
  let sb: Sandbox | undefined;
  let session: TermSession | undefined;
  beforeEach(() => {
    sb = createSandbox(prefix);
  });
  afterEach(async () => {
    if (session) {
      session.kill('SIGKILL');
      await session.exited;
      session.close();
      session = undefined;
    }
    await sb?.cleanup();
  });
  return {
    sandbox() {
      if (!sb) throw new Error('termSandbox: no sandbox outside a test');
      return sb;
    },
    start(args, options) {
      session = startRewind(args, options);
      return session;
    },
  };
}
