// The app's progress notices: a snapshot that was shown says it was taken, and only if it was.
import { describe, expect, it } from 'vitest';
import { progressNotices } from '../../src/runtime/session/progressNotice.js';

describe('progress notices in the app', () => {
  it('say "checkpoint taken" after a shown snapshot that succeeded, nothing after one that failed', () => {
    for (const failed of [false, true]) {
      const said: string[] = [];
      const listen = progressNotices((text) => said.push(text), { REWIND_TEST_PROGRESS_AFTER_MS: '0' });
      listen({ task: 'snapshot', done: 1200 });
      listen({ task: 'snapshot', done: 0, finished: true, ...(failed ? { failed } : {}) });
      expect(said).toEqual(['checkpointing… 1,200 files staged', ...(failed ? [] : ['checkpoint taken: 1,200 files staged'])]);
    }
  });
});
