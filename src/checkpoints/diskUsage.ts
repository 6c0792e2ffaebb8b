import fs, { type Dirent } from 'node:fs';
import path from 'node:path';

/** Bytes used on disk by everything under `dir` (allocated blocks; 0 when it does not exist). */
export async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      total += await diskUsage(full);
    } else {
      try {
        const stat = await fs.promises.lstat(full);
        total += stat.blocks * 512;
      } catch {
        // Removed meanwhile.
      }
    }
  }
  return total;
}
