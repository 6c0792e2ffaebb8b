// The search of `rewind bisect` as pure functions: the range, what is worth testing, the
// next probe with skips, and the breaks a scan finds.
import { describe, expect, it } from 'vitest';
import { bisectRange, nextProbe, runsLeft, scanBreaks, testable } from '../../src/checkpoints/tools/bisectSearch.js';
import type { CheckpointRecord } from '../../src/checkpoints/store/record.js';

function record(id: number, over: Partial<CheckpointRecord> = {}): CheckpointRecord {
  return { id, commit: `c${id}`, tree: `t${id}`, time: '', session: 's', agent: null, trigger: 'manual', label: '', deduped: false, changedSincePrevious: 1, skipped: [], nested: [], projectHead: null, conversation: null, ...over };
}

describe('bisect search', () => {
  it('defaults to the first checkpoint of the newest one’s session, up to the newest', () => {
    const records = [record(1, { session: 'old' }), record(2, { session: 'new' }), record(3, { session: 'new' }), record(4, { session: 'new' })];
    expect(bisectRange(records, undefined, undefined).map((r) => r.id)).toEqual([2, 3, 4]);
    expect(bisectRange(records, 1, 3).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(() => bisectRange(records, 4, 1)).toThrow(/--good #4 is newer than --bad #1/);
    expect(() => bisectRange([], undefined, undefined)).toThrow(/no checkpoints yet/);
    expect(() => bisectRange([record(1)], undefined, undefined)).toThrow(/only checkpoint #1 is in range/);
  });

  it('tests neither unchanged nor unrestorable checkpoints between the ends', () => {
    const range = [record(1), record(2, { tree: 't1' }), record(3, { unrestorable: true }), record(4), record(5, { tree: 't4' })];
    expect(testable(range).map((r) => r.id)).toEqual([1, 4, 5]);
  });

  it('probes the middle, or the untested one nearest it; none when all between are skipped', () => {
    expect(nextProbe(0, 16, new Set())).toBe(8);
    expect(nextProbe(0, 16, new Set([8]))).toBe(9);
    expect(nextProbe(0, 16, new Set([8, 9]))).toBe(7);
    expect(nextProbe(3, 4, new Set())).toBeUndefined();
    expect(nextProbe(0, 3, new Set([1, 2]))).toBeUndefined();
    expect(runsLeft(0, 31)).toBe(5);
  });

  it('finds each break in a scan and where it passed again, passing over skips', () => {
    const verdicts = [
      { id: 1, verdict: 'good' as const },
      { id: 2, verdict: 'bad' as const },
      { id: 3, verdict: 'skip' as const },
      { id: 4, verdict: 'good' as const },
      { id: 5, verdict: 'bad' as const },
    ];
    expect(scanBreaks(verdicts)).toEqual([
      { bad: 2, fixed: 4 },
      { bad: 5, fixed: null },
    ]);
  });
});
