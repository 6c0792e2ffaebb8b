// The search of `rewind bisect`, as pure functions over the checkpoints in range: which
// ones are worth testing, which to test next, and what the verdicts found.
import { UserError } from '../../shared/errors.js';
import type { CheckpointRecord } from '../store/record.js';

export type Verdict = 'good' | 'bad' | 'skip';

/**
 * The default range: from the first checkpoint of the newest one's session to the newest,
 * or the ids given; a UserError says what is wrong with them.
 */
export function bisectRange(records: readonly CheckpointRecord[], good: number | undefined, bad: number | undefined): CheckpointRecord[] {
  if (records.length === 0) throw new UserError('no checkpoints yet in this project: there is nothing to bisect');
  const find = (id: number, which: string) => {
    const index = records.findIndex((record) => record.id === id);
    if (index < 0) throw new UserError(`there is no checkpoint #${id} in this project (${which}): \`rewind list\` shows them`);
    return index;
  };
  const newest = records.length - 1;
  const end = bad === undefined ? newest : find(bad, '--bad');
  const session = records[end]?.session;
  const start = good === undefined ? Math.max(0, records.findIndex((record) => record.session === session)) : find(good, '--good');
  if (start > end) throw new UserError(`--good #${records[start]?.id} is newer than --bad #${records[end]?.id}: the good checkpoint must come first`);
  if (start === end) {
    throw new UserError(`only checkpoint #${records[end]?.id} is in range: name an older good one with --good ID (\`rewind list\` shows them)`);
  }
  return records.slice(start, end + 1);
}

/**
 * The checkpoints worth testing, oldest first: the two ends always; between them not
 * those that can no longer be restored, nor those whose files equal the one before
 * (a checkpoint with nothing changed cannot be where something broke).
 */
export function testable(range: readonly CheckpointRecord[]): CheckpointRecord[] {
  const out: CheckpointRecord[] = [];
  range.forEach((record, index) => {
    const end = index === 0 || index === range.length - 1;
    if (!end && (record.unrestorable || record.tree === out[out.length - 1]?.tree)) return;
    out.push(record);
  });
  return out;
}

/**
 * The next index to test between a known good `lo` and a known bad `hi`: the middle one,
 * or the untested one nearest to it when some were skipped; undefined when none is left.
 */
export function nextProbe(lo: number, hi: number, skipped: ReadonlySet<number>): number | undefined {
  const mid = Math.floor((lo + hi) / 2);
  for (let offset = 0; offset < hi - lo; offset++) {
    for (const index of [mid - offset, mid + offset + 1]) {
      if (index > lo && index < hi && !skipped.has(index)) return index;
    }
  }
  return undefined;
}

/** How many more runs a search between `lo` and `hi` takes (without skips). */
export function runsLeft(lo: number, hi: number): number {
  return Math.ceil(Math.log2(Math.max(1, hi - lo)));
}

/** A break `--scan` found: the first failing checkpoint after a passing one, and where it passed again. */
export interface ScanBreak {
  bad: number;
  fixed: number | null;
}

/** The breaks in a scan's verdicts (ids in order; skipped ones are passed over). */
export function scanBreaks(verdicts: readonly { id: number; verdict: Verdict }[]): ScanBreak[] {
  const breaks: ScanBreak[] = [];
  let last: Verdict | undefined;
  for (const { id, verdict } of verdicts) {
    if (verdict === 'skip') continue;
    if (verdict === 'bad' && last === 'good') breaks.push({ bad: id, fixed: null });
    const open = breaks[breaks.length - 1];
    if (verdict === 'good' && last === 'bad' && open && open.fixed === null) open.fixed = id;
    last = verdict;
  }
  return breaks;
}
