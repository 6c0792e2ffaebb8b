import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.js';
import type { Checkpoints } from '../checkpoints.js';
import { parseRawDiff, type RawChange } from '../diffRaw.js';
import { GitError } from '../git.js';
import type { CheckpointRecord, SkippedFile } from '../record.js';
import { applyPlan, stageWrites } from './apply.js';
import { interruptedJournal, interruptedMessage, writeJournal, type Journal } from './journal.js';
import { planFromDiff, type LeftAlone, type PlannedWrite } from './plan.js';
import { dropRedoPoint, nextRedoSeq, readRedoStack, redoRef, type RedoPoint } from './redoStack.js';
import { cleanStaleStaging, stagingDirFor } from './staging.js';

export interface RestorePreview {
  checkpoint: number;
  /** Paths written (created or replaced whole). */
  writes: PlannedWrite[];
  deletes: string[];
  leftAlone: LeftAlone[];
  /** Planned paths whose current content no checkpoint holds (edited after the newest one):
   * the redo point keeps them. */
  unsaved: string[];
  /** What the target checkpoint left out (too big, heavy): a restore does not touch those. */
  skipped: SkippedFile[];
}

export interface RestoreResult {
  checkpoint: number;
  changed: string[];
  deleted: string[];
  leftAlone: LeftAlone[];
  /** The checkpoint holding the files as they were before (what `rewind redo` brings back). */
  redo: number | null;
}

export interface RestoreOptions {
  /** Project-relative paths (files or folders) to restore; everything when empty. */
  only?: readonly string[];
}

function unrestorable(id: number, cause?: unknown): UserError {
  return new UserError(`checkpoint #${id} is no longer restorable: files it needs are gone from the store (the project's own \`git gc\` pruned objects it borrowed); nothing was changed`, { cause });
}

function pathspecs(only: readonly string[] | undefined): string[] {
  return only && only.length > 0 ? ['--', ...only.map((file) => `:(literal)${file}`)] : [];
}

async function diffTrees(engine: Checkpoints, from: string, to: string, only?: readonly string[]) {
  const result = await engine.repo.git(['diff-tree', '-r', '-z', '--raw', '--no-renames', from, to, ...pathspecs(only)]);
  return parseRawDiff(result.stdout);
}

interface Prepared {
  target: CheckpointRecord;
  current: string;
  preview: RestorePreview;
}

/** Works out what restoring `target` over the tree `current` does (nothing is touched). */
async function prepare(engine: Checkpoints, target: CheckpointRecord, current: string, nested: readonly string[], changes: RawChange[]): Promise<Prepared> {
  const plan = planFromDiff(changes, nested);
  const root = engine.project.root;
  // A path the checkpoint has and the current tree lacks, yet on disk: a file the rules
  // leave out now (ignored, too big, heavy). Left as it is.
  const writes = plan.writes.filter((write) => {
    if (!write.creates) return true;
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(path.join(root, write.path));
    } catch {
      return true;
    }
    if (stat.isDirectory()) return true;
    plan.leftAlone.push({ path: write.path, reason: 'ignored or skipped now (not in any checkpoint): left as it is' });
    return false;
  });
  const newest = engine.log.last();
  const touched = new Set([...writes.map((write) => write.path), ...plan.deletes]);
  const unsaved = newest && newest.tree !== current ? (await diffTrees(engine, newest.tree, current)).map((change) => change.path).filter((file) => touched.has(file)) : [];
  return {
    target,
    current,
    preview: { checkpoint: target.id, writes, deletes: plan.deletes, leftAlone: plan.leftAlone, unsaved, skipped: target.skipped },
  };
}

/** The changes from `current` to the target, limited to `only`; unreadable objects mean the target is gone. */
async function changesTo(engine: Checkpoints, current: string, target: CheckpointRecord, only: readonly string[] | undefined): Promise<RawChange[]> {
  try {
    return await diffTrees(engine, current, target.tree, only);
  } catch (error) {
    if (error instanceof GitError) throw unrestorable(target.id, error);
    throw error;
  }
}

function targetOf(engine: Checkpoints, id: number): CheckpointRecord {
  const target = engine.get(id);
  if (target.unrestorable) throw unrestorable(id);
  return target;
}

/** What restoring checkpoint `id` would do, from the files as they are now. Changes nothing. */
export async function previewRestore(engine: Checkpoints, id: number, options: RestoreOptions = {}): Promise<RestorePreview> {
  return engine.locked('preview a restore', async () => {
    const target = targetOf(engine, id);
    const current = await engine.currentTreeLocked();
    const changes = await changesTo(engine, current.tree, target, options.only);
    const { preview } = await prepare(engine, target, current.tree, current.nested, changes);
    return preview;
  });
}

/**
 * Restores checkpoint `id`: the files as they are now are checkpointed first (the redo
 * point, pushed on the redo stack), the changed files are staged from the store, the
 * journal is written, then each file is renamed into place and each deletion made.
 * Every object needed is read before anything in the project is touched.
 */
export async function restoreCheckpoint(engine: Checkpoints, id: number, options: RestoreOptions = {}): Promise<RestoreResult> {
  return engine.locked('restore', () => restoreLocked(engine, id, options, undefined));
}

async function restoreLocked(engine: Checkpoints, id: number, options: RestoreOptions, redoOf: RedoPoint | undefined): Promise<RestoreResult> {
  const interrupted = interruptedJournal(engine.store.journal);
  const finishing = interrupted !== undefined && interrupted.target === id && interrupted.isRedo === (redoOf !== undefined);
  // With a restore cut off, only finishing it or going back to before it make sense.
  if (interrupted && !finishing && interrupted.redo !== id) {
    throw new UserError(`${interruptedMessage(interrupted)}; do that before restoring anything else`);
  }
  const target = targetOf(engine, id);
  cleanStaleStaging(engine);

  let redo: number;
  let current: string;
  let nested: string[];
  let changes: RawChange[];
  let pushed: RedoPoint | undefined;
  if (finishing) {
    redo = interrupted.redo;
    const tree = await engine.currentTreeLocked();
    current = tree.tree;
    nested = tree.nested;
    changes = await changesTo(engine, current, target, options.only);
  } else {
    // One git process: checkpoint the files as they are (the redo point), push it on the
    // redo stack, and diff it against the target.
    const label = redoOf ? `before redo (back to #${redoOf.checkpoint})` : `before restoring #${id}`;
    const seq = redoOf ? 0 : await nextRedoSeq(engine.repo);
    const { record, toTarget } = await engine.snapshotLocked({
      trigger: redoOf ? 'redo' : 'restore',
      label,
      backgroundScan: false,
      alsoRef: redoOf ? undefined : (checkpoint) => redoRef(seq, checkpoint),
      diffTo: options.only && options.only.length > 0 ? undefined : target.tree,
    });
    redo = record.id;
    current = record.tree;
    nested = record.nested;
    if (!redoOf) pushed = { seq, checkpoint: record.id, ref: redoRef(seq, record.id) };
    try {
      changes = toTarget ? parseRawDiff(toTarget) : await changesTo(engine, current, target, options.only);
    } catch (error) {
      if (pushed) await dropRedoPoint(engine.repo, pushed);
      throw error;
    }
  }
  const { preview } = await prepare(engine, target, current, nested, changes);
  const plan = { writes: preview.writes, deletes: preview.deletes, leftAlone: preview.leftAlone };
  const staging = stagingDirFor(engine);
  let staged: string[];
  try {
    staged = await stageWrites(engine.repo, plan.writes, staging);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (pushed) await dropRedoPoint(engine.repo, pushed);
    throw unrestorable(id, error);
  }
  const journal: Omit<Journal, 'owner' | 'started'> = {
    target: id,
    redo,
    isRedo: redoOf !== undefined,
    staging,
    writes: plan.writes.map((write) => write.path),
    deletes: plan.deletes,
  };
  const changesFiles = plan.writes.length + plan.deletes.length > 0;
  if (changesFiles) writeJournal(engine.store.journal, journal);
  // Nothing to do: the redo point would only undo nothing.
  else if (pushed) await dropRedoPoint(engine.repo, pushed);
  const applied = applyPlan(engine.project.root, plan, staged);
  fs.rmSync(engine.store.journal, { force: true });
  fs.rmSync(staging, { recursive: true, force: true });
  if (redoOf?.ref) await dropRedoPoint(engine.repo, redoOf);
  return { checkpoint: id, changed: applied.changed, deleted: applied.deleted, leftAlone: applied.leftAlone, redo: changesFiles && !redoOf ? redo : null };
}

/**
 * Undoes the last restore: restores the checkpoint its redo point holds (the files as they
 * were just before it), and pops it. The files as they are before the redo are
 * checkpointed first, so a redo can be undone too (`rewind restore <that id>`).
 * After an interrupted restore, this puts everything back as it was before it.
 */
export async function redoLast(engine: Checkpoints): Promise<RestoreResult & { undid: number }> {
  return engine.locked('redo', async () => {
    const stack = await readRedoStack(engine.repo);
    const interrupted = interruptedJournal(engine.store.journal);
    let top: RedoPoint | undefined;
    if (interrupted && !interrupted.isRedo) {
      // Back to before the restore that was cut off (its redo point may not be pushed yet).
      top = stack.find((point) => point.checkpoint === interrupted.redo) ?? { seq: 0, checkpoint: interrupted.redo, ref: '' };
      fs.rmSync(engine.store.journal, { force: true });
    } else {
      top = stack.at(-1);
    }
    if (!top) throw new UserError('nothing to undo: no restore has been made here (or every one was undone already)');
    const result = await restoreLocked(engine, top.checkpoint, {}, top);
    return { ...result, undid: top.checkpoint };
  });
}

export { interruptedJournal, interruptedMessage };
