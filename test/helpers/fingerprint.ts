import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every entry under `root`, recursively: relative path -> type, permission bits and, for
 * files, size and sha256 of the bytes (for symlinks, the target). Two equal fingerprints
 * mean the same file set with the same bytes and the same modes.
 */
export function fingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  walk(root, (rel, full, stat) => {
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isSymbolicLink()) out[rel] = `symlink ${mode} -> ${fs.readlinkSync(full)}`;
    else if (stat.isDirectory()) out[rel] = `dir ${mode}`;
    else if (stat.isFile()) out[rel] = `file ${mode} ${stat.size} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
    else out[rel] = `other ${mode}`;
  });
  return out;
}

/**
 * The mtime of every entry under `root` except files under `objects/`: a file rewritten
 * with the same bytes, or a lock file created and removed in a folder, moves these.
 * Object files are left out because git itself "freshens" (utime) an object it finds in
 * an alternate instead of writing it again; their bytes stay the same.
 */
export function mtimes(root: string): Record<string, number> {
  const out: Record<string, number> = {};
  walk(root, (rel, _full, stat) => {
    if (stat.isFile() && rel.split(path.sep)[0] === 'objects') return;
    out[rel] = stat.mtimeMs;
  });
  return out;
}

function walk(root: string, visit: (rel: string, full: string, stat: fs.Stats) => void): void {
  const recurse = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const stat = fs.lstatSync(full);
      visit(path.relative(root, full), full, stat);
      if (stat.isDirectory()) recurse(full);
    }
  };
  recurse(root);
}
