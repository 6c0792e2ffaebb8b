// A step that spans several checkpoints (a turn; a step whose writes settled in two bursts)
// counts what it changed from its first checkpoint to its end, by one diff: a file made and
// removed inside a turn is no change of the turn's, and no count is capped at a record's
// first 100 paths.
import type { CheckpointRecord, SpanChange } from '../../checkpoints/index.js';
import type { SessionStep } from './sessionSteps.js';

/** What the counts are read from: the records' trees and one diff of many pairs. */
export interface SpanSource {
  spanChanges(pairs: readonly (readonly [string, string])[]): Promise<SpanChange[]>;
}

/**
 * The steps with each spanning one's files, paths and `more` from the diff of its first
 * checkpoint's tree to its end's (`nowTree`, the work tree as a tree, for a step that ends
 * now; without it such a step keeps its union count). If the diff cannot be read (a pruned
 * tree), the steps come back as they were.
 */
export async function exactStepCounts(steps: readonly SessionStep[], records: readonly Pick<CheckpointRecord, 'id' | 'tree' | 'unrestorable'>[], source: SpanSource, nowTree?: string): Promise<SessionStep[]> {
  const trees = new Map(records.filter((record) => !record.unrestorable).map((record) => [record.id, record.tree]));
  const asked: { index: number; pair: readonly [string, string] }[] = [];
  steps.forEach((step, index) => {
    if (!step.spans) return;
    const from = trees.get(step.id);
    const to = step.to === null ? nowTree : trees.get(step.to);
    if (from !== undefined && to !== undefined) asked.push({ index, pair: [from, to] });
  });
  if (asked.length === 0) return [...steps];
  let spans: SpanChange[];
  try {
    spans = await source.spanChanges(asked.map((entry) => entry.pair));
  } catch {
    return [...steps];
  }
  const exact = [...steps];
  asked.forEach(({ index }, n) => {
    const span = spans[n] as SpanChange;
    exact[index] = { ...(exact[index] as SessionStep), files: span.paths.length, paths: span.paths, more: false };
  });
  return exact;
}
