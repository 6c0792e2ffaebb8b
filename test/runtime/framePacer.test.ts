// The frame pacer on a fake clock: which frames are drawn at once and which wait for the
// flood pace (the order of events, not how fast a machine runs them).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FramePacer } from '../../src/runtime/session/framePacer.js';

describe('FramePacer', () => {
  let frames: number[];
  let pacer: FramePacer;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    frames = [];
    pacer = new FramePacer(() => frames.push(Date.now()), 2, 66, { frames: 4, ms: 50 });
  });
  afterEach(() => {
    pacer.stop();
    vi.useRealTimers();
  });
  const at = (ms: number) => 1_000_000 + ms;

  it('draws nothing once stopped: a change that comes after (a late notice) never lands on the user\'s screen', () => {
    pacer.request();
    pacer.stop();
    pacer.request();
    pacer.keySent();
    vi.advanceTimersByTime(1_000);
    expect(frames).toEqual([]);
  });

  it('draws the first change after a quiet spell at once, and many requests as one frame', () => {
    pacer.request();
    pacer.request();
    vi.advanceTimersByTime(2);
    expect(frames).toEqual([at(2)]);
  });

  it('draws an answer that comes in two writes (an empty update, then the echo) without waiting for the flood pace', () => {
    pacer.keySent();
    vi.advanceTimersByTime(2);
    pacer.request(); // the agent's first write, which changes nothing
    vi.advanceTimersByTime(25);
    pacer.request(); // its echo, 25 ms later
    vi.advanceTimersByTime(2);
    expect(frames).toEqual([at(4), at(29)]);
  });

  it('paces a flood at about 15 frames a second once the burst is over', () => {
    for (let ms = 0; ms < 1_000; ms += 1) {
      pacer.request();
      vi.advanceTimersByTime(1);
    }
    // A few quick frames, then one every 66 ms.
    const gaps = frames.slice(1).map((frame, index) => frame - (frames[index] as number));
    expect(gaps.slice(0, 3).every((gap) => gap < 10)).toBe(true);
    expect(gaps.slice(4).every((gap) => gap === 66)).toBe(true);
    expect(frames.length).toBeLessThan(20);
  });

  it('a key during a flood draws its echo quickly, with the frame that was waiting', () => {
    for (let ms = 0; ms < 300; ms += 1) {
      pacer.request();
      vi.advanceTimersByTime(1);
    }
    const before = frames.length;
    pacer.request();
    pacer.keySent();
    vi.advanceTimersByTime(2);
    expect(frames.length).toBe(before + 1);
    pacer.request();
    vi.advanceTimersByTime(2);
    expect(frames.length).toBe(before + 2);
  });
});

describe('FramePacer and a synchronized update (DEC mode 2026)', () => {
  let frames: number[];
  let update: number | undefined;
  let pacer: FramePacer;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    frames = [];
    update = undefined;
    pacer = new FramePacer(() => frames.push(Date.now()), 2, 66, { frames: 4, ms: 50 }, Date.now, { update: () => update, ms: 500 });
  });
  afterEach(() => {
    pacer.stop();
    vi.useRealTimers();
  });
  const at = (ms: number) => 1_000_000 + ms;

  it('draws no frame while the update is in progress, and draws at its end', () => {
    update = 1;
    pacer.request(); // the update's first half
    vi.advanceTimersByTime(100);
    pacer.request(); // more of it
    vi.advanceTimersByTime(100);
    expect(frames).toEqual([]);
    update = undefined;
    pacer.request(); // its end was parsed
    vi.advanceTimersByTime(2);
    expect(frames).toEqual([at(202)]);
  });

  it('a key during the update does not draw it half way', () => {
    update = 1;
    pacer.request();
    vi.advanceTimersByTime(10);
    pacer.keySent();
    vi.advanceTimersByTime(50);
    expect(frames).toEqual([]);
  });

  it('draws an update that never ends once it has held a frame for its deadline, and that update holds no frame again', () => {
    update = 7;
    pacer.request();
    vi.advanceTimersByTime(600);
    expect(frames).toEqual([at(502)]);
    pacer.request();
    vi.advanceTimersByTime(70);
    expect(frames.length).toBe(2);
    // The next update is held again.
    update = 8;
    pacer.request();
    vi.advanceTimersByTime(200);
    expect(frames.length).toBe(2);
  });
});
