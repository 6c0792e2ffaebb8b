import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import type { Checkpoints } from './checkpoints.js';
import { whyUnrestorable, type CheckpointRecord } from './record.js';
import { makeScratch, removeScratch, TreeFolder } from './treeFolder.js';

/** What `rewind fork` made. */
export interface ForkResult {
  record: CheckpointRecord;
  dir: string;
  /** Nested repositories: empty folders in the fork (their files are not in checkpoints). */
  nested: string[];
}

function refuseDestination(dir: string, projectRoot: string): void {
  const relative = path.relative(projectRoot, dir);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw new UserError(`${dir} is inside the project: fork into a folder outside it (--dir DIR)`);
  }
  if (!fs.existsSync(path.dirname(dir))) throw new UserError(`${path.dirname(dir)} does not exist: create it first, or name another folder with --dir DIR`);
}

/**
 * Writes checkpoint `id`'s files into `dir`, a folder that must not exist yet (not even
 * empty): they go to a hidden sibling first, then it is renamed into place, so a failure
 * leaves nothing behind. Modes, symlinks and bytes are the checkpoint's; the project and
 * the shadow's index are not touched.
 */
export async function forkCheckpoint(engine: Checkpoints, id: number, dir: string): Promise<ForkResult> {
  const record = engine.get(id);
  const why = whyUnrestorable(record);
  if (why) throw new UserError(`checkpoint #${id} cannot be forked: ${why}`);
  refuseDestination(dir, engine.project.root);
  // Taken now, so nobody else can have it while the files are written (mkdir is exclusive).
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UserError(`${dir} already exists: fork never writes into an existing folder; name a new one with --dir DIR`);
    throw error;
  }
  const scratch = makeScratch(engine);
  let temp: string | undefined;
  try {
    temp = fs.mkdtempSync(path.join(path.dirname(dir), `.${path.basename(dir)}.rewind-fork-`));
    await new TreeFolder(engine, temp, path.join(scratch, 'index')).fill(record.tree);
    fs.chmodSync(temp, 0o777 & ~process.umask());
    fs.renameSync(temp, dir);
    temp = undefined;
    return { record, dir, nested: record.nested };
  } catch (error) {
    if (temp) removeScratch(temp);
    fs.rmdirSync(dir);
    throw new UserError(`checkpoint #${id} could not be forked into ${dir} (nothing was left there): ${(error as Error).message}`, { cause: error });
  } finally {
    removeScratch(scratch);
  }
}
