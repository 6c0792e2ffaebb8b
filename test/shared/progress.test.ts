// Progress words and when they show: only after about a second, at most every 100 ms, and
// each task (a restore's own snapshot nests in it) timed on its own.
import { describe, expect, it, onTestFinished } from 'vitest';
import { delayedProgress, progressDelayMs, progressText, type ProgressReport } from '../../src/shared/progress.js';
import { injectInProcess } from '../helpers/inject.js';

function recorder(delayMs: number) {
  let clock = 0;
  const shown: string[] = [];
  const ended: string[] = [];
  const listen = delayedProgress({ show: (text) => shown.push(text), end: (report, last) => ended.push(`${report.task} ${last.done}`) }, delayMs, () => clock);
  return { shown, ended, listen, tick: (ms: number) => (clock += ms) };
}

describe('progress', () => {
  it('says counts in words', () => {
    expect(progressText({ task: 'snapshot', done: 12_345 })).toBe('checkpointing… 12,345 files staged');
    expect(progressText({ task: 'restore', done: 340, total: 1000 })).toBe('restoring… 340 of 1,000 files');
  });

  it('shows a task only once it has run for the delay, then at most every 100 ms, and ends it', () => {
    const { shown, ended, listen, tick } = recorder(1000);
    const snap = (done: number, finished?: boolean): ProgressReport => ({ task: 'snapshot', done, finished });
    listen(snap(10));
    tick(500);
    listen(snap(20));
    expect(shown).toEqual([]);
    tick(600);
    listen(snap(30));
    tick(50);
    listen(snap(40));
    tick(60);
    listen(snap(50));
    listen(snap(0, true));
    expect(shown).toEqual(['checkpointing… 30 files staged', 'checkpointing… 50 files staged']);
    expect(ended).toEqual(['snapshot 50']);
  });

  it('a quick task shows nothing and ends silently; nested tasks are timed apart', () => {
    const { shown, ended, listen, tick } = recorder(1000);
    listen({ task: 'restore', done: 0, total: 5 });
    listen({ task: 'snapshot', done: 3 });
    listen({ task: 'snapshot', done: 0, finished: true });
    tick(1000);
    listen({ task: 'restore', done: 4, total: 5 });
    listen({ task: 'restore', done: 0, finished: true });
    expect(shown).toEqual(['restoring… 4 of 5 files']);
    expect(ended).toEqual(['restore 4']);
  });

  it('waits about a second unless a test shortened it', () => {
    expect(progressDelayMs()).toBe(1000);
    const restore = injectInProcess({ waits: { 'progress-after': 0 } });
    try {
      expect(progressDelayMs()).toBe(0);
    } finally {
      restore();
    }
    expect(progressDelayMs()).toBe(1000);
  });
});

describe("the app's progress notices", () => {
  it('say the counts in the status line, and a shown snapshot says when it is done', async () => {
    const { progressNotices } = await import('../../src/runtime/session/progressNotice.js');
    const said: string[] = [];
    const restore = injectInProcess({ waits: { 'progress-after': 0 } });
    onTestFinished(restore);
    const listen = progressNotices((text) => said.push(text));
    listen({ task: 'snapshot', done: 2_000 });
    listen({ task: 'snapshot', done: 0, finished: true });
    listen({ task: 'restore', done: 7, total: 9 });
    listen({ task: 'restore', done: 0, finished: true });
    expect(said).toEqual(['checkpointing… 2,000 files staged', 'checkpoint taken: 2,000 files staged', 'restoring… 7 of 9 files']);
  });
});
