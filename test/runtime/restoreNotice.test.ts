// The notice a restore ends with stays until the agent is back at its prompt, then fades as
// any other: a conversation restore starts the agent again, and Gemini CLI takes 12 s or more
// to show its prompt, twice as long as a notice lasts. On a fake clock: no waiting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityTracker } from '../../src/runtime/checkpointing/activity.js';
import { Notices } from '../../src/runtime/session/notices.js';
import { RestoreNoticeHold } from '../../src/runtime/restore/restoreAgent.js';

const shownMs = 6_000;

describe('a held notice', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('outlives its time while held, and fades that long after it is let go', () => {
    let held = true;
    const notices = new Notices(() => undefined, shownMs);
    notices.say('restored the files of #3', 'info', undefined, () => held);
    vi.advanceTimersByTime(20_000);
    expect(notices.current()?.text).toBe('restored the files of #3');
    held = false;
    vi.advanceTimersByTime(shownMs - 500);
    expect(notices.current()?.text).toBe('restored the files of #3');
    vi.advanceTimersByTime(1_000);
    expect(notices.current()).toBeUndefined();
  });

  it('is held a minute at most (an agent that never comes back)', () => {
    const notices = new Notices(() => undefined, shownMs);
    notices.say('resumed the conversation of #3', 'info', undefined, () => true);
    vi.advanceTimersByTime(60_000 + shownMs - 1_000);
    expect(notices.current()).toBeDefined();
    vi.advanceTimersByTime(2_000);
    expect(notices.current()).toBeUndefined();
  });

  it('asks for a redraw when it fades', () => {
    let held = true;
    const redraws: number[] = [];
    const notices = new Notices(() => redraws.push(Date.now()), shownMs);
    notices.say('restored', 'info', undefined, () => held);
    redraws.length = 0;
    vi.advanceTimersByTime(10_000);
    held = false;
    vi.advanceTimersByTime(shownMs + 500);
    expect(redraws.length).toBeGreaterThan(0);
    expect(notices.current()).toBeUndefined();
  });
});

describe("a restore's notice, as the session holds it", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The session's parts as the controller wires them: the hold asks the activity whether the agent is at its prompt. */
  function session(eventsSayWork: boolean) {
    const activity = new ActivityTracker(1_500, 200, eventsSayWork);
    const hold = new RestoreNoticeHold(() => activity.atPrompt());
    const notices = new Notices(() => undefined, shownMs);
    const say = (text: string) => notices.say(text, 'info', undefined, hold.holdForNext());
    return { activity, hold, notices, say };
  }

  it('stays while Gemini is started again, resumed, until its SessionStart says it is at its prompt: 12 s, then the usual 6 s', () => {
    const { activity, hold, notices, say } = session(true);
    activity.report(false); // idle at its prompt before the restore
    hold.began(); // restartAgent
    activity.agentStarted();
    say('restored the files of #6 and resumed the conversation of #6 (4 message(s))');
    expect(activity.busy()).toBe(false); // starting again is not work
    vi.advanceTimersByTime(4_000);
    for (let drawn = 0; drawn < 8_000; drawn += 500) {
      activity.sawOutput(); // it draws its banner, its history, its prompt
      vi.advanceTimersByTime(500);
    }
    expect(notices.current()?.text).toMatch(/^restored the files of #6/); // 12 s: past its 6 s
    activity.report(false); // SessionStart: at its prompt
    vi.advanceTimersByTime(shownMs - 500);
    expect(notices.current()).toBeDefined();
    vi.advanceTimersByTime(1_000);
    expect(notices.current()).toBeUndefined();
  });

  it('for an agent whose events say nothing at its start, stays until its screen is drawn and quiet', () => {
    const { activity, hold, notices, say } = session(false);
    hold.began();
    activity.agentStarted();
    say('resumed the conversation of #2 (2 message(s)); your files are untouched');
    vi.advanceTimersByTime(10_000); // nothing drawn yet
    expect(notices.current()).toBeDefined();
    activity.sawOutput();
    vi.advanceTimersByTime(1_000);
    activity.sawOutput(); // still drawing at 11 s
    vi.advanceTimersByTime(1_500 + shownMs - 500);
    expect(notices.current()).toBeDefined();
    vi.advanceTimersByTime(1_000);
    expect(notices.current()).toBeUndefined();
  });

  it('of a files-only restore, stays while the agent is still busy (Ctrl-C did not stop it), then fades', () => {
    const { activity, hold, notices, say } = session(true);
    activity.report(true);
    hold.began(); // whileRestoring
    say('restored the files of #4 while the agent was still busy');
    vi.advanceTimersByTime(15_000);
    expect(notices.current()).toBeDefined();
    activity.report(false); // its turn ends
    vi.advanceTimersByTime(shownMs + 500);
    expect(notices.current()).toBeUndefined();
  });

  it('holds only the notice that follows a restore: any other fades after its 6 s, however long the agent works', () => {
    const { activity, hold, notices, say } = session(true);
    activity.report(true);
    hold.began();
    say('restored the files of #4');
    say('checkpoint #9');
    vi.advanceTimersByTime(shownMs + 500);
    expect(notices.current()).toBeUndefined();
  });
});
