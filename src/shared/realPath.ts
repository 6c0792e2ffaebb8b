import fs from 'node:fs';
import path from 'node:path';

/**
 * Where `file` really is: every symbolic link in it resolved, as the kernel will follow
 * them, as far as it exists (the part that does not exist yet, or cannot because a file
 * stands above it, kept as given).
 */
export function realPathOf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch (error) {
    const parent = path.dirname(file);
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === file) throw error;
    return path.join(realPathOf(parent), path.basename(file));
  }
}
