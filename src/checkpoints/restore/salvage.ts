import fs from 'node:fs';
import { chosenFilesMark } from '../../shared/triggers.js';
import type { Engine } from '../snapshot/engine.js';
import { dropCreated, readCreated, recordCreated } from './createdFiles.js';
import { displacedDir, leftDisplaced } from './displaced.js';
import type { Journal } from './journal.js';
import { readRedoStack } from '../store/redoStack.js';
import { blobsIn, keepRacedWrites, type RacedWrites } from './writtenMeanwhile.js';

/**
 * A restore cut off after it began changing files leaves the files it displaced kept in its
 * staging folder (displaced.ts), with whatever was written into them while it ran. Before
 * anything else touches that folder (finishing the restore, or undoing it), they are checked
 * against its redo point and what differs is kept as a restore keeps it; its redo point
 * moves there, and the journal with it. Returns the journal as it is now, and what was kept.
 * Caller holds the lock.
 */
export async function salvageCutOff(engine: Engine, journal: Journal): Promise<{ journal: Journal; raced: RacedWrites }> {
  const displaced = leftDisplaced(journal.staging, journal);
  if (displaced.length === 0) return { journal, raced: {} };
  const base = engine.list().find((record) => record.id === journal.redo);
  if (!base) return { journal, raced: {} };
  const held = await blobsIn(engine, base.tree, displaced.map((file) => file.path));
  const point = journal.isRedo ? undefined : (await readRedoStack(engine.repo)).find((candidate) => candidate.checkpoint === journal.redo);
  const what = journal.isRedo ? `written during the undo (back to #${journal.target})` : `written while restoring #${journal.target}${chosenFilesMark(journal.only)}`;
  const move = point ? { point, journal, movedCreated: (moved: typeof point) => recordCreated(engine, moved, readCreated(engine, point)) } : undefined;
  const raced = await keepRacedWrites(engine, displaced, held, base, `${what}, found after it was cut off`, move);
  if (raced.point && point) dropCreated(engine, point);
  fs.rmSync(displacedDir(journal.staging), { recursive: true, force: true });
  return { journal: raced.point ? { ...journal, redo: raced.point.checkpoint, redoWas: journal.redo } : journal, raced };
}
