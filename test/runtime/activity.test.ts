// Busy or idle from the agent's output: its answers to the keys we forward are not work.
import { describe, expect, it } from 'vitest';
import { ActivityTracker, isInterrupt } from '../../src/runtime/checkpointing/activity.js';

describe('ActivityTracker', () => {
  it('takes output right after a forwarded key for an answer to it, later output for work', () => {
    const activity = new ActivityTracker(1_500, 200);
    activity.keySent(1_000);
    activity.sawOutput(1_010); // the echo, the next prompt
    activity.sawOutput(1_190);
    expect(activity.busy(1_200)).toBe(false);
    activity.sawOutput(1_500); // on its own, 500 ms after the key
    expect(activity.busy(1_600)).toBe(true);
    expect(activity.untilIdle(1_600)).toBe(1_400);
    expect(activity.busy(3_000)).toBe(false);
  });

  it("waits for the answer to the last key, until it has settled or the echo window is over", () => {
    const activity = new ActivityTracker(1_500, 200);
    expect(activity.untilEchoed(20, 0)).toBe(0); // no key sent
    activity.keySent(1_000);
    expect(activity.untilEchoed(20, 1_000)).toBe(20); // nothing back yet
    activity.sawOutput(1_005);
    expect(activity.untilEchoed(20, 1_010)).toBe(15); // back, not yet quiet for 20 ms
    expect(activity.untilEchoed(20, 1_025)).toBe(0);
    activity.keySent(2_000);
    expect(activity.untilEchoed(20, 2_190)).toBe(10); // an agent that does not echo: the window ends it
    expect(activity.untilEchoed(20, 2_200)).toBe(0);
  });

  it('after an interrupt of an agent its events call busy: busy while its output flows, idle once it is quiet, until its next event', () => {
    const activity = new ActivityTracker(1_500, 200);
    activity.report(true);
    activity.sawOutput(1_000);
    expect(activity.busy(5_000)).toBe(true); // busy by its word, however quiet
    activity.interruptSent(5_000);
    activity.sawOutput(5_100); // "Request cancelled."
    activity.sawOutput(6_000); // still drawing
    expect(activity.busy(7_000)).toBe(true);
    expect(activity.untilIdle(7_000)).toBe(500);
    expect(activity.busy(7_500)).toBe(false);
    // Its next event decides again.
    activity.report(true);
    expect(activity.busy(20_000)).toBe(true);
  });

  it('forgets what an agent said of itself once it is started again: the new one is busy until its output is quiet', () => {
    const activity = new ActivityTracker(1_500, 200);
    activity.report(false); // the agent before said it waits
    activity.agentStarted(10_000);
    expect(activity.busy(10_000)).toBe(true);
    activity.sawOutput(10_400); // it draws its screen
    expect(activity.busy(11_800)).toBe(true);
    expect(activity.busy(11_900)).toBe(false);
  });

  it('ignores an interrupt of an agent that is idle by its word, or has no events', () => {
    const idle = new ActivityTracker(1_500, 200);
    idle.report(false);
    idle.interruptSent(1_000);
    idle.sawOutput(1_010);
    expect(idle.busy(1_100)).toBe(false);
    const plain = new ActivityTracker(1_500, 200);
    plain.interruptSent(1_000);
    plain.sawOutput(1_500);
    expect(plain.busy(1_600)).toBe(true);
  });

  it('an agent whose events say when it works is idle at its start however much it draws, until its first event or key', () => {
    const hooked = new ActivityTracker(1_500, 200, true);
    for (let at = 0; at <= 15_000; at += 100) hooked.sawOutput(at); // Gemini CLI drawing its start screen
    expect(hooked.busy(15_000)).toBe(false);
    expect(hooked.untilIdle(15_000)).toBe(0);
    hooked.report(false); // SessionStart
    hooked.report(true); // BeforeAgent
    expect(hooked.busy(16_000)).toBe(true);
    // After the first key, output it did not answer counts again until an event says.
    const typed = new ActivityTracker(1_500, 200, true);
    typed.keySent(1_000);
    typed.sawOutput(2_000);
    expect(typed.busy(2_100)).toBe(true);
  });

  it('such an agent started again (resumed) is idle while it draws, and back at its prompt once its event says so', () => {
    const hooked = new ActivityTracker(1_500, 200, true);
    hooked.report(false);
    hooked.agentStarted(10_000);
    expect(hooked.busy(10_000)).toBe(false);
    for (let at = 14_000; at <= 22_000; at += 200) hooked.sawOutput(at);
    expect(hooked.busy(22_100)).toBe(false);
    expect(hooked.atPrompt(22_100)).toBe(false); // drawn, but its SessionStart has not come
    hooked.report(false);
    expect(hooked.atPrompt(22_200)).toBe(true);
    // One whose events never come at its start: back once its screen is drawn and quiet for a while.
    const silent = new ActivityTracker(1_500, 200, true);
    silent.agentStarted(0);
    expect(silent.atPrompt(20_000)).toBe(false); // nothing drawn
    silent.sawOutput(20_000);
    expect(silent.atPrompt(24_000)).toBe(false);
    expect(silent.atPrompt(25_000)).toBe(true);
  });

  it('an agent without events started again is back at its prompt once it has drawn and gone quiet', () => {
    const plain = new ActivityTracker(1_500, 200);
    expect(plain.atPrompt(0)).toBe(true); // never restarted: idle is at its prompt
    plain.agentStarted(10_000);
    expect(plain.atPrompt(12_000)).toBe(false); // quiet, but nothing drawn yet
    plain.sawOutput(13_000);
    expect(plain.atPrompt(14_000)).toBe(false);
    expect(plain.atPrompt(14_600)).toBe(true);
  });

  it('takes a lone Esc or Ctrl-C for an interrupt, nothing else', () => {
    expect([isInterrupt('\x1b'), isInterrupt(Buffer.from([0x03])), isInterrupt('\x1b[A'), isInterrupt('a'), isInterrupt(Buffer.from([0x1b, 0x1b]))]).toEqual([true, true, false, false, false]);
  });
});
