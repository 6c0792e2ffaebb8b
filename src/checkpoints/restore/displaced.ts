import fs from 'node:fs';
import path from 'node:path';

/**
 * A file a restore is about to replace or delete, kept until the restore is done: a hard
 * link to the same inode, in the restore's staging folder. Whatever another process writes
 * into that file while the restore runs (an editor's autosave, a dev server, an agent
 * without hooks) lands in the kept link too, so once the restore is done it can be compared
 * with what the redo point holds and saved (see writtenMeanwhile.ts).
 *
 * Named `d<i>` for the plan's i-th deletion and `w<i>` for its i-th write: with the journal
 * (which lists both in plan order) a restore that was cut off can still be checked.
 */
export interface DisplacedFile {
  /** Project-relative path. */
  path: string;
  /** The kept file. */
  kept: string;
  /** The file's permission bits, where the kept file is a copy (a hard link has them itself). */
  mode?: number;
}

/** Most files kept open at once where no hard link can be made (see keep). */
const maxOpen = 256;

/** The folder of a restore's kept files, inside its staging folder. */
export function displacedDir(staging: string): string {
  return path.join(staging, 'displaced');
}

/** The kept files a restore left (cut off): name → project path, by the journal's lists. */
export function leftDisplaced(staging: string, journal: { writes: readonly string[]; deletes: readonly string[] }): DisplacedFile[] {
  const dir = displacedDir(staging);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const found: DisplacedFile[] = [];
  for (const name of names) {
    const index = Number(name.slice(1));
    const file = name.startsWith('d') ? journal.deletes[index] : name.startsWith('w') ? journal.writes[index] : undefined;
    if (file !== undefined && Number.isInteger(index)) found.push({ path: file, kept: path.join(dir, name) });
  }
  return found;
}

/** Keeps displaced files in one folder, made when the first one comes. */
export class DisplacedFiles {
  readonly kept: DisplacedFile[] = [];
  /** Files no hard link could be made to: a copy, and the file held open to read again at the end. */
  private readonly open = new Map<DisplacedFile, number>();
  private made = false;

  constructor(private readonly dir: string) {}

  /**
   * Keeps the regular file at `full` (project path `file`) before it is replaced or deleted,
   * as `name`. A symlink is not kept: its target can only change by a new link (a new
   * inode), which the restore's own check sees. Returns the kept entry, or undefined.
   */
  keep(full: string, file: string, stat: fs.Stats, name: string): DisplacedFile | undefined {
    if (!stat.isFile()) return undefined;
    if (!this.made) {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.made = true;
    }
    const entry = { path: file, kept: path.join(this.dir, name) };
    try {
      fs.linkSync(full, entry.kept);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      // No hard link here (protected_hardlinks for another owner's file, no links on this
      // file system): a copy now, and the file held open, read again once the restore is done.
      if (!this.copyHeldOpen(full, entry)) return undefined;
    }
    this.kept.push(entry);
    return entry;
  }

  private copyHeldOpen(full: string, entry: { path: string; kept: string; mode?: number }): boolean {
    let fd: number;
    try {
      fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch {
      return false;
    }
    try {
      copyFrom(fd, entry.kept);
      entry.mode = fs.fstatSync(fd).mode;
    } catch {
      fs.closeSync(fd);
      return false;
    }
    if (this.open.size < maxOpen) this.open.set(entry, fd);
    else fs.closeSync(fd);
    return true;
  }

  /** Forgets the last kept file (the restore left that path alone after all). */
  forget(entry: DisplacedFile | undefined): void {
    if (!entry || this.kept.at(-1) !== entry) return;
    this.kept.pop();
    const fd = this.open.get(entry);
    if (fd !== undefined) fs.closeSync(fd);
    this.open.delete(entry);
    fs.rmSync(entry.kept, { force: true });
  }

  /** Once the restore is done: the copies of files held open take what was written into them since. */
  settle(): void {
    for (const [entry, fd] of this.open) {
      try {
        copyFrom(fd, `${entry.kept}.now`);
        fs.renameSync(`${entry.kept}.now`, entry.kept);
        entry.mode = fs.fstatSync(fd).mode;
      } catch {
        // The copy taken before stays.
      } finally {
        fs.closeSync(fd);
      }
    }
    this.open.clear();
  }
}

/** Writes everything `fd` holds (from its start) to a new file `to`. */
function copyFrom(fd: number, to: string): void {
  const out = fs.openSync(to, 'w', 0o600);
  try {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (let position = 0; ; ) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      fs.writeSync(out, buffer, 0, read);
      position += read;
    }
  } finally {
    fs.closeSync(out);
  }
}
