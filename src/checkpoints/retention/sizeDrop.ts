// A size drop that freed little is not repeated every hour. The cap counts what no drop can
// free (the files as they are now, the shadow index, kept conversations): a store over it for
// that reason would otherwise lose half its checkpoints at every check, down to the newest,
// for nothing. After a drop that freed under a tenth of the store and left it over the cap,
// the next waits until the store has grown past what that drop left by a tenth.
import fs from 'node:fs';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/** The store's size before and after the last size drop that left it over the cap. */
interface SizeDrop {
  before: number;
  after: number;
}

const share = 0.1;

function read(file: string): SizeDrop | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SizeDrop>;
    return typeof parsed.before === 'number' && typeof parsed.after === 'number' ? { before: parsed.before, after: parsed.after } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a size drop now, with the store at `bytes`, would repeat one that freed little. */
export function sizeDropHeld(file: string, bytes: number): boolean {
  const last = read(file);
  return last !== undefined && last.before - last.after < share * last.before && bytes < last.after * (1 + share);
}

/** Keeps what a size drop did (`undefined`: forgets it, the store being under its cap). */
export function rememberSizeDrop(file: string, drop: SizeDrop | undefined): void {
  try {
    if (drop) writeFileAtomic(file, JSON.stringify(drop));
    else fs.rmSync(file, { force: true });
  } catch {
    // A store this user may not write: the next check measures again.
  }
}
