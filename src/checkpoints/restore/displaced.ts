import fs from 'node:fs';
import path from 'node:path';

/**
 * A file a restore is about to replace or delete, kept (a hard link to the same inode, in
 * the restore's staging folder) until the restore is done. Whatever another process writes
 * into that file while the restore runs (an editor's autosave, a dev server, an agent
 * without hooks) lands in the kept link too, so once the restore is done it can be compared
 * with what the redo point holds and saved (see writtenMeanwhile.ts).
 */
export interface DisplacedFile {
  /** Project-relative path. */
  path: string;
  /** The kept link (or, where no hard link can be made, a copy taken just before). */
  kept: string;
  /** 100644 or 100755, as the file was when kept. */
  mode: string;
}

/** Keeps displaced files in one folder, made when the first one comes. */
export class DisplacedFiles {
  readonly kept: DisplacedFile[] = [];
  private made = false;

  constructor(private readonly dir: string) {}

  /**
   * Keeps the regular file at `full` (project path `file`) before it is replaced or deleted.
   * A symlink is not kept: its target can only change by a new link (a new inode), which the
   * restore's own check sees. Returns the kept entry, or undefined when nothing is kept.
   */
  keep(full: string, file: string, stat: fs.Stats): DisplacedFile | undefined {
    if (!stat.isFile()) return undefined;
    if (!this.made) {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.made = true;
    }
    const kept = path.join(this.dir, String(this.kept.length));
    try {
      fs.linkSync(full, kept);
    } catch (error) {
      // The file vanished, or no hard link can be made here (protected_hardlinks for a file
      // of another owner, a file system without links): a copy of it as it is now.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      try {
        fs.copyFileSync(full, kept);
      } catch {
        return undefined;
      }
    }
    const entry = { path: file, kept, mode: stat.mode & 0o111 ? '100755' : '100644' };
    this.kept.push(entry);
    return entry;
  }

  /** Forgets the last kept file (the restore left that path alone after all). */
  forget(entry: DisplacedFile | undefined): void {
    if (!entry || this.kept.at(-1) !== entry) return;
    this.kept.pop();
    fs.rmSync(entry.kept, { force: true });
  }
}
