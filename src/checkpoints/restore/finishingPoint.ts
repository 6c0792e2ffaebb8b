import type { Engine } from '../snapshot/engine.js';
import type { Journal } from './journal.js';
import { moveRedoPoint, nextRedoSeq, pushRedoPoint, readRedoStack, redoRef, type RedoPoint } from '../store/redoStack.js';

// The redo point of a restore that was cut off: found again, or pushed, when it is finished.

/**
 * The redo point of the cut-off restore `journal` when it was cut off while that point moved
 * (writtenMeanwhile.ts): the journal names the new checkpoint, the ref still the old one.
 */
export function movedFrom(stack: readonly RedoPoint[], journal: Journal): RedoPoint | undefined {
  if (journal.redoWas === undefined) return undefined;
  return stack.find((point) => point.checkpoint === journal.redoWas && (point.restored === undefined || point.restored === journal.target));
}

/** The redo point a restore of `restored` pushed, pinning checkpoint `checkpoint` (undefined: gone). */
async function redoPointOf(engine: Engine, checkpoint: number, restored: number): Promise<RedoPoint | undefined> {
  return (await readRedoStack(engine.repo)).findLast((point) => point.checkpoint === checkpoint && (point.restored === undefined || point.restored === restored));
}

/**
 * The redo point of the cut-off restore being finished: pushed now if it was cut off
 * between its journal and its push, so the finished restore can be undone like any other.
 */
export async function finishingPoint(engine: Engine, journal: Journal, restored: number): Promise<RedoPoint> {
  const checkpoint = journal.redo;
  const found = await redoPointOf(engine, checkpoint, restored);
  if (found) return found;
  const commit = engine.get(checkpoint).commit;
  // Cut off while its redo point moved (writtenMeanwhile.ts): the journal names the new one.
  const left = movedFrom(await readRedoStack(engine.repo), journal);
  if (left) {
    const moved = { ...left, checkpoint, ref: redoRef(left.seq, checkpoint, restored) };
    await moveRedoPoint(engine.repo, left, moved, commit);
    return moved;
  }
  const seq = await nextRedoSeq(engine.repo);
  const point = { seq, checkpoint, restored, ref: redoRef(seq, checkpoint, restored) };
  await pushRedoPoint(engine.repo, point, commit);
  return point;
}
