import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a file so a reader sees either the old content or the new, never a part:
 * a temp file in the same folder, fsync, rename over. Mode 0600 by default. Files rewind
 * can derive again (generated rules, caches) skip the fsync: after a power cut they are
 * old or new, possibly empty, and regenerated.
 */
export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o600, durable = true): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(temp, 'w', mode);
  try {
    fs.writeFileSync(fd, data);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
