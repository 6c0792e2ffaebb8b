// The app's progress notices: a snapshot that was shown says it was taken, and only if it was.
import { describe, expect, it, onTestFinished } from 'vitest';
import { injectInProcess } from '../helpers/inject.js';
import { progressNotices } from '../../src/runtime/session/progressNotice.js';

describe('progress notices in the app', () => {
  it('say "checkpoint taken" after a shown snapshot that succeeded, nothing after one that failed', () => {
    onTestFinished(injectInProcess({ waits: { 'progress-after': 0 } }));
    for (const failed of [false, true]) {
      const said: string[] = [];
      const listen = progressNotices((text) => said.push(text));
      listen({ task: 'snapshot', done: 1200 });
      listen({ task: 'snapshot', done: 0, finished: true, ...(failed ? { failed } : {}) });
      expect(said).toEqual(['checkpointing… 1,200 files staged', ...(failed ? [] : ['checkpoint taken: 1,200 files staged'])]);
    }
  });
});
