import fs from 'node:fs';
import path from 'node:path';
import type { Engine } from '../snapshot/engine.js';
import type { RawChange } from '../git/diffRaw.js';
import { text } from '../git/git.js';
import type { CheckpointRecord } from '../store/record.js';
import type { DisplacedFile } from './displaced.js';
import type { ObjectReader } from '../git/catFile.js';
import { rewriteJournal, type Journal } from './journal.js';
import type { PlannedWrite } from './plan.js';
import { treeWith } from './planDiff.js';
import { moveRedoPoint, redoRef, type RedoPoint } from '../store/redoStack.js';
import { seam } from '../../shared/seams.js';
import { recordTreeOnTop } from './recordTree.js';
import { withScratch } from './staging.js';

/** A displaced file whose content or mode is not what the redo point holds for its path: written while the restore ran. */
export type LateWrite = Pick<PlannedWrite, 'path' | 'mode' | 'oid'> & { added: boolean };

/** What the redo point holds for a path: its blob and mode (regular files only). */
export type HeldBlobs = ReadonlyMap<string, { oid: string; mode: string }>;

/** The regular files of the tree a plan starts from (the redo point's), from the plan's diff. */
export function blobsAt(changes: readonly RawChange[]): Map<string, { oid: string; mode: string }> {
  return new Map(changes.filter((change) => change.srcMode === '100644' || change.srcMode === '100755').map((change) => [change.path, { oid: change.srcOid, mode: change.srcMode }]));
}

/** The regular files of `tree` at `paths` (one ls-tree). */
export async function blobsIn(engine: Engine, tree: string, paths: readonly string[]): Promise<Map<string, { oid: string; mode: string }>> {
  const held = new Map<string, { oid: string; mode: string }>();
  if (paths.length === 0) return held;
  const wanted = new Set(paths);
  for (const line of text(await engine.repo.git(['ls-tree', '-r', '-z', '--full-tree', tree])).split('\0')) {
    const tab = line.indexOf('\t');
    const [mode = '', , oid = ''] = line.slice(0, tab).split(' ');
    const file = line.slice(tab + 1);
    if (wanted.has(file) && (mode === '100644' || mode === '100755')) held.set(file, { oid, mode });
  }
  return held;
}

function modeOf(file: DisplacedFile): string {
  const bits = file.mode ?? fs.statSync(file.kept).mode;
  return bits & 0o111 ? '100755' : '100644';
}

/**
 * The blob ids of `files`, written to the store as they are (the shadow repository turns
 * every attribute conversion off: a snapshot stores a file's bytes as they are). One git
 * process; if it fails (a file that cannot be read), one a file, and those that fail are
 * `unchecked`.
 */
async function storeBlobs(engine: Engine, files: readonly DisplacedFile[]): Promise<{ oids: Map<DisplacedFile, string>; unchecked: DisplacedFile[] }> {
  const hash = async (batch: readonly DisplacedFile[]) => text(await engine.repo.git(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: `${batch.map((file) => file.kept).join('\n')}\n` })).split('\n');
  try {
    const oids = await hash(files);
    return { oids: new Map(files.map((file, index) => [file, oids[index] ?? ''])), unchecked: [] };
  } catch {
    const oids = new Map<DisplacedFile, string>();
    const unchecked: DisplacedFile[] = [];
    for (const file of files) {
      try {
        oids.set(file, (await hash([file]))[0] ?? '');
      } catch {
        unchecked.push(file);
      }
    }
    return { oids, unchecked };
  }
}

/**
 * The displaced files that may hold something the redo point does not (`held`): every one
 * but those whose bytes and mode are exactly its blob's, read through `reader` (the
 * restore's own cat-file, already running). Those need no git process to hash them;
 * anything not read whole (the file, or the blob) stays in the list for lateWrites.
 */
export async function mayDiffer(reader: ObjectReader, displaced: readonly DisplacedFile[], held: HeldBlobs): Promise<DisplacedFile[]> {
  const reads = displaced.map((file) => {
    const before = held.get(file.path);
    return before ? reader.read(before.oid).catch(() => undefined) : Promise.resolve(undefined);
  });
  const differ: DisplacedFile[] = [];
  for (const [index, file] of displaced.entries()) {
    const blob = await reads[index];
    if (!blob || 'missing' in blob || !sameFile(file, blob.data, held.get(file.path)?.mode)) differ.push(file);
  }
  return differ;
}

/** Whether the kept file is exactly `data` with this mode (unreadable: not known to be). */
function sameFile(file: DisplacedFile, data: Buffer, mode: string | undefined): boolean {
  try {
    return modeOf(file) === mode && fs.readFileSync(file.kept).equals(data);
  } catch {
    return false;
  }
}

/**
 * The displaced files that hold something the redo point does not (`held`): each kept file
 * is the inode the restore replaced or deleted, with every write that landed in it. Those
 * that could not be read are `unchecked`.
 */
export async function lateWrites(engine: Engine, displaced: readonly DisplacedFile[], held: HeldBlobs): Promise<{ late: LateWrite[]; unchecked: DisplacedFile[] }> {
  if (displaced.length === 0) return { late: [], unchecked: [] };
  const { oids, unchecked } = await storeBlobs(engine, displaced);
  const late: LateWrite[] = [];
  for (const [file, oid] of oids) {
    const before = held.get(file.path);
    const mode = modeOf(file);
    if (before && before.oid === oid && before.mode === mode) continue;
    late.push({ path: file.path, mode, oid, added: before === undefined });
  }
  return { late, unchecked };
}

/** Records the late writes as a checkpoint: `base`'s files with them in place, on top of `base`. Caller holds the lock. */
export async function recordLateWrites(engine: Engine, base: CheckpointRecord, label: string, late: readonly LateWrite[]): Promise<CheckpointRecord> {
  const tree = await withScratch(engine, (scratch) => treeWith(engine, base.tree, { writes: late.map((write) => ({ ...write, creates: write.added })), deletes: [], leftAlone: [] }, scratch));
  return recordTreeOnTop(engine, base, tree, 'restore', label, { paths: late.map((write) => write.path), added: late.filter((write) => write.added).length, deleted: 0 });
}

/**
 * Keeps what could not be checked (unreadable now) in a folder of the store, with the
 * list of their paths, for the user to look at: never deleted by Rewind.
 */
export function keepUnchecked(engine: Engine, unchecked: readonly DisplacedFile[]): string | undefined {
  if (unchecked.length === 0) return undefined;
  const dir = path.join(engine.store.root, `unchecked-${new Date(engine.now()).toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const listed: string[] = [];
  unchecked.forEach((file, index) => {
    try {
      fs.renameSync(file.kept, path.join(dir, String(index)));
      listed.push(`${index}\t${file.path}`);
    } catch {
      // Gone with its folder: nothing to keep.
    }
  });
  fs.writeFileSync(path.join(dir, 'paths'), `${listed.join('\n')}\n`, { mode: 0o600 });
  return dir;
}

/** What a restore tells about writes that raced it (see RestoreResult). */
export interface RacedWrites {
  writtenMeanwhile?: { checkpoint: number; paths: string[] };
  unchecked?: { dir: string; paths: string[] };
  /** The redo point, moved to the checkpoint of the late writes when there was one to move. */
  point?: RedoPoint;
}

/**
 * After a restore changed the files: finds what was written into the files it displaced
 * after `base` read them, records it on top of `base`, and, when `move` is given (the
 * restore's own redo point and its journal), moves the redo point there: the journal first,
 * then one ref transaction, so a kill at any moment leaves one redo point.
 */
export async function keepRacedWrites(
  engine: Engine,
  displaced: readonly DisplacedFile[],
  held: HeldBlobs,
  base: CheckpointRecord,
  label: string,
  move?: { point: RedoPoint; journal: Journal; movedCreated: (point: RedoPoint) => void },
): Promise<RacedWrites> {
  const { late, unchecked } = await lateWrites(engine, displaced, held);
  const kept = keepUnchecked(engine, unchecked);
  const result: RacedWrites = kept ? { unchecked: { dir: kept, paths: unchecked.map((file) => file.path) } } : {};
  if (late.length === 0) return result;
  const saved = await recordLateWrites(engine, base, label, late);
  result.writtenMeanwhile = { checkpoint: saved.id, paths: late.map((write) => write.path) };
  if (move && move.point.checkpoint === base.id) {
    const moved = { ...move.point, checkpoint: saved.id, ref: redoRef(move.point.seq, saved.id, move.point.restored ?? move.journal.target) };
    rewriteJournal(engine.store.journal, { ...move.journal, redo: saved.id, redoWas: move.journal.redo });
    move.movedCreated(moved);
    seam('moving');
    await moveRedoPoint(engine.repo, move.point, moved, saved.commit);
    seam('moved');
    result.point = moved;
  }
  return result;
}
