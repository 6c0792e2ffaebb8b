import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.js';
import type { Checkpoints } from '../checkpoints.js';
import { parseRawDiff, type RawChange } from '../diffRaw.js';
import { GitError } from '../git.js';
import { whyUnrestorable, type CheckpointRecord, type SkippedFile } from '../record.js';
import { applyPlan, missingFolders, removeLeftoverFolders, stageWrites } from './apply.js';
import { ObjectReader } from '../catFile.js';
import { readRestoredMarker, writeRestoredMarker } from './restoredMarker.js';
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
  /** Files left out of checkpoints (too big, heavy): not touched, whatever they hold. */
  skipped: SkippedFile[];
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
/**
 * lstat of a project path that never follows a symlink on the way: undefined when the path
 * does not exist as itself (a folder above it is missing, a file, or a symlink).
 */
function lstatInProject(root: string, file: string): fs.Stats | undefined {
  let current = root;
  const parts = file.split('/');
  for (const [index, part] of parts.entries()) {
    current = path.join(current, part);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      return undefined;
    }
    if (index === parts.length - 1) return stat;
    if (!stat.isDirectory()) return undefined;
  }
  return undefined;
}

/**
 * The tree the files were last known to match: the newest checkpoint's, unless a restore
 * has put the files back to another checkpoint since (then that one's).
 */
function savedTree(engine: Checkpoints): string | undefined {
  const newest = engine.log.last();
  const restored = readRestoredMarker(engine);
  return restored && newest && restored.after === newest.id ? restored.tree : newest?.tree;
}

/** Works out what restoring `target` over the tree `current` does (nothing is touched). */
async function prepare(engine: Checkpoints, target: CheckpointRecord, current: string, nested: readonly string[], changes: RawChange[]): Promise<Prepared> {
  const plan = planFromDiff(changes, nested);
  const root = engine.project.root;
  // A path the checkpoint has and the current tree lacks, yet on disk as itself: a file the
  // rules leave out now (ignored, too big, heavy). Left as it is.
  const writes = plan.writes.filter((write) => {
    if (!write.creates) return true;
    const stat = lstatInProject(root, write.path);
    if (!stat || stat.isDirectory()) return true;
    plan.leftAlone.push({ path: write.path, reason: 'ignored or skipped now (not in any checkpoint): left as it is' });
    return false;
  });
  const saved = savedTree(engine);
  const touched = new Set([...writes.map((write) => write.path), ...plan.deletes]);
  const unsaved = saved && saved !== current ? (await diffTrees(engine, saved, current)).map((change) => change.path).filter((file) => touched.has(file)) : [];
  const skipped = new Map([...target.skipped, ...engine.skippedNow()].map((file) => [file.path, file]));
  return {
    target,
    current,
    preview: { checkpoint: target.id, writes, deletes: plan.deletes, leftAlone: plan.leftAlone, unsaved, skipped: [...skipped.values()] },
  };
}

/** Fails with "no longer restorable" unless every blob these writes read is in the store. */
async function requireObjects(engine: Checkpoints, id: number, oids: readonly string[]): Promise<void> {
  if (oids.length === 0) return;
  const checker = new ObjectReader([`--git-dir=${engine.repo.gitDir}`], { cwd: engine.store.root, env: engine.repo.env }, false);
  try {
    const found = await Promise.all([...new Set(oids)].map((oid) => checker.read(oid)));
    if (found.some((object) => 'missing' in object)) throw unrestorable(id);
  } finally {
    await checker.close();
  }
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
  if (whyUnrestorable(target) !== undefined) throw unrestorable(id);
  return target;
}

/** What restoring checkpoint `id` would do, from the files as they are now. Changes nothing. */
export async function previewRestore(engine: Checkpoints, id: number, options: RestoreOptions = {}): Promise<RestorePreview> {
  return engine.locked('preview a restore', async () => {
    const target = targetOf(engine, id);
    const current = await engine.currentTreeLocked();
    const changes = await changesTo(engine, current.tree, target, options.only);
    const { preview } = await prepare(engine, target, current.tree, current.nested, changes);
    await requireObjects(engine, id, preview.writes.map((write) => write.oid));
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
    // Every object the restore reads is read (staged) before any file is touched; if one is
    // missing, the redo point taken for it is dropped again, so nothing at all changes. For
    // --only, the objects are also checked before that point is taken.
    const newest = engine.log.last();
    const whole = !options.only || options.only.length === 0;
    if (newest && newest.tree !== target.tree && !whole) {
      const likely = await changesTo(engine, newest.tree, target, options.only);
      await requireObjects(engine, id, likely.filter((change) => change.status !== 'D' && change.dstMode !== '160000').map((change) => change.dstOid));
    }
    // One git process: checkpoint the files as they are (the redo point), push it on the
    // redo stack, and diff it against the target.
    const label = redoOf ? `before redo (back to #${redoOf.checkpoint})` : `before restoring #${id}`;
    const seq = redoOf ? 0 : await nextRedoSeq(engine.repo);
    const { record, toTarget } = await engine.snapshotLocked({
      trigger: redoOf ? 'redo' : 'restore',
      label,
      backgroundScan: false,
      alsoRef: redoOf ? undefined : (checkpoint) => redoRef(seq, checkpoint),
      diffTo: whole ? target.tree : undefined,
    });
    redo = record.id;
    current = record.tree;
    nested = record.nested;
    if (!redoOf) pushed = { seq, checkpoint: record.id, ref: redoRef(seq, record.id) };
    try {
      changes = toTarget ? parseRawDiff(toTarget) : await changesTo(engine, current, target, options.only);
    } catch (error) {
      if (pushed) await dropRedoPoint(engine.repo, pushed);
      await engine.dropNewestLocked(redo);
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
    // Nothing was restored: the redo point taken for it goes too.
    if (!finishing) await engine.dropNewestLocked(redo);
    throw unrestorable(id, error);
  }
  const journal: Omit<Journal, 'owner' | 'started'> = {
    target: id,
    redo,
    isRedo: redoOf !== undefined,
    staging,
    writes: plan.writes.map((write) => write.path),
    deletes: plan.deletes,
    createdDirs: missingFolders(engine.project.root, plan.writes.map((write) => write.path)),
  };
  const changesFiles = plan.writes.length + plan.deletes.length > 0;
  if (changesFiles) writeJournal(engine.store.journal, journal);
  // Nothing to do: the redo point would only undo nothing.
  else if (pushed) await dropRedoPoint(engine.repo, pushed);
  const applied = applyPlan(engine.project.root, plan, staged);
  // A restore cut off before may have made folders, or emptied them, that nothing holds now.
  if (interrupted) removeLeftoverFolders(engine.project.root, interrupted);
  writeRestoredMarker(engine, { tree: target.tree, after: engine.log.last()?.id ?? 0 });
  fs.rmSync(engine.store.journal, { force: true });
  fs.rmSync(staging, { recursive: true, force: true });
  if (redoOf?.ref) await dropRedoPoint(engine.repo, redoOf);
  return {
    checkpoint: id,
    changed: applied.changed,
    deleted: applied.deleted,
    leftAlone: applied.leftAlone,
    skipped: preview.skipped,
    redo: changesFiles && !redoOf ? redo : null,
  };
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
    } else {
      top = stack.at(-1);
    }
    if (!top) throw new UserError('nothing to undo: no restore has been made here (or every one was undone already)');
    const result = await restoreLocked(engine, top.checkpoint, {}, top);
    return { ...result, undid: top.checkpoint };
  });
}

export { interruptedJournal, interruptedMessage };
