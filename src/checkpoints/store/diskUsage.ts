import fs, { type Dirent } from 'node:fs';
import path from 'node:path';

/**
 * Bytes used on disk by `dir` and everything under it, as `du -sB1` counts them: the
 * blocks allocated to files and folders, a hard-linked file once. 0 when it does not exist.
 * (fs.promises is reached through `fs`: `node:fs/promises` would load with every snapshot.)
 */
export async function diskUsage(dir: string, seen = new Set<string>()): Promise<number> {
  let total: number;
  try {
    total = await allocated(dir, seen);
  } catch {
    return 0;
  }
  let entries: Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return total;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    try {
      total += entry.isDirectory() ? await diskUsage(full, seen) : await allocated(full, seen);
    } catch {
      // Removed meanwhile.
    }
  }
  return total;
}

async function allocated(file: string, seen: Set<string>): Promise<number> {
  const stat = await fs.promises.lstat(file);
  if (stat.nlink > 1 && !stat.isDirectory()) {
    const key = `${stat.dev}:${stat.ino}`;
    if (seen.has(key)) return 0;
    seen.add(key);
  }
  return stat.blocks * 512;
}
