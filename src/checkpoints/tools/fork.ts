import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { realPathOf } from '../../shared/realPath.js';
import type { Engine } from '../snapshot/engine.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { TreeFolder } from '../git/treeFolder.js';
import { makeScratch, removeScratch } from '../store/scratchFolders.js';

/** What `rewind fork` made. */
export interface ForkResult {
  record: CheckpointRecord;
  dir: string;
  /** Nested repositories: empty folders in the fork (their files are not in checkpoints). */
  nested: string[];
}

/** Whether `dir` is `parent` or inside it (both real paths). */
function within(dir: string, parent: string): boolean {
  const relative = path.relative(parent, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Refuses a fork's folder inside the project or the store, or whose parent folder does not exist (`real`: its real path). */
export function refuseDestination(dir: string, real: string, engine: Engine): void {
  const through = real === dir ? '' : ` (through a symlink: it is ${real})`;
  if (within(real, engine.project.root)) throw new UserError(`${dir} is inside the project${through}: fork into a folder outside it (--dir DIR)`);
  if (within(real, engine.store.root)) throw new UserError(`${dir} is inside the checkpoint store${through}: fork into a folder outside it (--dir DIR)`);
  if (!fs.existsSync(path.dirname(dir))) throw new UserError(`${path.dirname(dir)} does not exist: create it first, or name another folder with --dir DIR`);
}

/**
 * Writes checkpoint `id`'s files into `dir`, a folder that must not exist yet (not even
 * empty): they go to a hidden sibling first, then it is renamed into place, so a failure
 * leaves nothing behind. Modes, symlinks and bytes are the checkpoint's; the project and
 * the shadow's index are not touched.
 */
export async function forkCheckpoint(engine: Engine, id: number, dir: string): Promise<ForkResult> {
  const record = engine.get(id);
  const why = whyUnrestorable(record);
  if (why) throw new UserError(`checkpoint #${id} cannot be forked: ${why}`);
  refuseDestination(dir, realPathOf(dir), engine);
  // Taken now, so nobody else can have it while the files are written (mkdir is exclusive).
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UserError(`${dir} already exists: fork never writes into an existing folder; name a new one with --dir DIR`);
    if (code === 'ENOTDIR') throw new UserError(`${path.dirname(dir)} is not a folder: name another folder with --dir DIR`);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new UserError(`${dir} cannot be created (${code}): name a folder you may write in with --dir DIR`);
    throw error;
  }
  // Checked again where it was made: a symlink on the way swapped since the check moves it.
  const made = fs.realpathSync(dir);
  try {
    refuseDestination(dir, made, engine);
  } catch (error) {
    fs.rmdirSync(made);
    throw error;
  }
  const scratch = makeScratch(engine);
  let temp: string | undefined;
  try {
    temp = fs.mkdtempSync(path.join(path.dirname(made), `.${path.basename(made)}.rewind-fork-`));
    await new TreeFolder(engine.repo, temp, path.join(scratch, 'index')).fill(record.tree);
    fs.chmodSync(temp, 0o777 & ~process.umask());
    fs.renameSync(temp, made);
    temp = undefined;
    return { record, dir, nested: record.nested };
  } catch (error) {
    if (temp) removeScratch(temp);
    fs.rmdirSync(made);
    throw new UserError(`checkpoint #${id} could not be forked into ${dir} (nothing was left there): ${(error as Error).message}`, { cause: error });
  } finally {
    removeScratch(scratch);
  }
}
