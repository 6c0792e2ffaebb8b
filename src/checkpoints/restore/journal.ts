import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomicFile.js';
import { currentProcessMark, isAlive, type ProcessMark } from '../../os/processAlive.js';
import { shellWord } from '../../shared/shellWord.js';

/**
 * The restore journal: written (and synced) before the first file is touched, removed
 * after the last. If it is still there and its process is gone, a restore was cut off:
 * every file is whole (old or new), and the journal says which checkpoint it was going
 * to and where the files as they were before it are (the redo point).
 */
export interface Journal {
  owner: ProcessMark;
  started: string;
  /** The checkpoint being restored. */
  target: number;
  /** The checkpoint holding the files as they were before (what `rewind redo` goes back to). */
  redo: number;
  /** True when this restore is itself a redo (it pushed no redo point of its own). */
  isRedo: boolean;
  staging: string;
  writes: string[];
  deletes: string[];
  /** Folders the writes create (so a recovery can remove them if they end up empty). */
  createdDirs: string[];
  /** The paths it was limited to (`--only`), which finishing it keeps to. */
  only?: string[];
  /**
   * What restores cut off before this one (which finishes or undoes them) deleted and made:
   * the folders they may have left empty are removed with this one's, even if this one is
   * cut off too.
   */
  earlier?: LeftoverFolders;
  /** Set while its redo point moves to the checkpoint of writes that raced it: the one it moves from. */
  redoWas?: number;
}

/** The paths whose folders a cut-off restore may have left behind. */
export interface LeftoverFolders {
  deletes: readonly string[];
  createdDirs?: readonly string[];
}

/** `journal`'s leftovers and those of the restores it was finishing or undoing, together. */
export function leftoversOf(journal: Journal): LeftoverFolders {
  return {
    deletes: [...new Set([...journal.deletes, ...(journal.earlier?.deletes ?? [])])],
    createdDirs: [...new Set([...journal.createdDirs, ...(journal.earlier?.createdDirs ?? [])])],
  };
}

export function writeJournal(file: string, journal: Omit<Journal, 'owner' | 'started'>): Journal {
  const full: Journal = { owner: currentProcessMark(), started: new Date().toISOString(), ...journal };
  writeFileAtomic(file, `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

/** The errors of a file system that does not sync folders: such a folder is passed over. */
export const folderSyncUnsupported: ReadonlySet<string> = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP']);

/**
 * Writes `journal` as it is (its owner and start kept): a change to a journal already
 * written. Its name is made durable too (its folder synced): what the restore does next (a
 * redo point moved, files renamed) must not outlive a power cut that brings the old one back.
 * `ignore`: a failed sync is passed over (put back after a failed restore, whose own failure
 * is the one to tell).
 */
export function rewriteJournal(file: string, journal: Journal, syncFailure: 'throw' | 'ignore' = 'throw'): void {
  writeFileAtomic(file, `${JSON.stringify(journal, null, 2)}\n`);
  try {
    const folder = fs.openSync(path.dirname(file), fs.constants.O_RDONLY);
    try {
      fs.fsyncSync(folder);
    } finally {
      fs.closeSync(folder);
    }
  } catch (error) {
    if (syncFailure === 'throw' && !folderSyncUnsupported.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}

export function readJournal(file: string): Journal | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Journal;
  } catch {
    return undefined;
  }
}

/** A journal whose restore is no longer running: the restore was interrupted. */
export function interruptedJournal(file: string): Journal | undefined {
  const journal = readJournal(file);
  return journal && !isAlive(journal.owner) ? journal : undefined;
}

/** What to tell the user about an interrupted restore. */
export function interruptedMessage(journal: Journal): string {
  const whole = 'every file is either as it was or as restored, none is half-written';
  if (journal.isRedo) {
    return `an undo (rewind redo) back to checkpoint #${journal.target} was interrupted (started ${journal.started}): ${whole}. Run \`rewind redo\` to finish it, or \`rewind restore ${journal.redo}\` to go back to how things were before it`;
  }
  const only = (journal.only ?? []).map((file) => ` --only ${shellWord(file)}`).join('');
  return `a restore of checkpoint #${journal.target}${only ? ` (${only.trim()})` : ''} was interrupted (started ${journal.started}): ${whole}. Run \`rewind restore ${journal.target}${only}\` to finish it, or \`rewind redo\` to put everything back as it was before (checkpoint #${journal.redo})`;
}
