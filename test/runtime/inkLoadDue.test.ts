// Ink is loaded behind the agent only once it has started: not while it asks the terminal its
// colours (Codex waits ~0.2 s for the answer, the load holds the event loop that long), and
// at the latest 3 s after the start.
import { describe, expect, it } from 'vitest';
import { ActivityTracker } from '../../src/runtime/checkpointing/activity.js';
import { inkLoadDue } from '../../src/runtime/session/inkLoader.js';

/** An agent whose events say when it works (idle from its start, as Codex, Claude Code and Gemini CLI). */
const hooksAgent = () => new ActivityTracker(1_500, 200, true);
const state = (activity: ActivityTracker, now: number) => ({ busy: activity.busy(now), quietFor: activity.outputQuietFor(now) });

describe('inkLoadDue', () => {
  it('waits for the agent to draw its start screen, then for half a second of quiet', () => {
    const activity = hooksAgent();
    // Idle by its word from the start, but it has written nothing: it may be about to ask its colours.
    expect(activity.busy(400)).toBe(false);
    expect(inkLoadDue(state(activity, 400), 400)).toBe(false);
    activity.sawOutput(450); // its questions, then its first frame
    activity.sawOutput(600);
    expect(inkLoadDue(state(activity, 1_000), 1_000)).toBe(false);
    expect(inkLoadDue(state(activity, 1_100), 1_100)).toBe(true);
  });

  it('not while an agent without events is busy, however long ago it started drawing', () => {
    const activity = new ActivityTracker(1_500, 200);
    activity.sawOutput(100);
    expect(inkLoadDue(state(activity, 700), 700)).toBe(false);
    expect(inkLoadDue(state(activity, 1_600), 1_600)).toBe(true);
  });

  it('at the latest 3 s after the start, for an agent that never goes quiet or never draws', () => {
    const silent = hooksAgent();
    expect(inkLoadDue(state(silent, 2_999), 2_999)).toBe(false);
    expect(inkLoadDue(state(silent, 3_000), 3_000)).toBe(true);
    const spinner = new ActivityTracker(1_500, 200);
    for (let t = 0; t <= 3_000; t += 100) spinner.sawOutput(t);
    expect(inkLoadDue(state(spinner, 3_000), 3_000)).toBe(true);
  });
});
