import type { ShadowRepo } from '../store/shadowRepo.js';
import { splitNul } from '../git/git.js';

/** One entry of a tree, as `git ls-tree -z` lists it. */
export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  path: string;
}

/** Well under Linux's per-process argument limit (2 MiB with the environment). */
const maxArgumentBytes = 96 * 1024;

/** Splits `items` into runs whose total size stays well under the argv limit. */
export function argumentChunks(items: readonly string[], maxBytes = maxArgumentBytes): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const item of items) {
    const bytes = Buffer.byteLength(item) + 1;
    if (current.length > 0 && size + bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Parses `ls-tree -z` records: `<mode> <type> <oid>\t<path>`. */
function parseEntries(output: Buffer): TreeEntry[] {
  return splitNul(output).flatMap((record) => {
    const tab = record.indexOf('\t');
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    return tab > 0 && mode && type && oid ? [{ mode, type, oid, path: record.slice(tab + 1) }] : [];
  });
}

/**
 * What `git ls-tree` lists of `tree` for these paths: the entry at each path it has (a
 * folder as one entry, not its contents) — but where a folder and a path inside it are
 * both asked for, the folder's contents instead of the folder. Callers match the paths
 * they want. Paths are literal (no wildcards or magic) and go to git in chunks, so any
 * number of them fits in the argument limit.
 */
export async function entriesAt(repo: ShadowRepo, tree: string, paths: readonly string[]): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  for (const chunk of argumentChunks([...new Set(paths)])) {
    const result = await repo.git(['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', tree, '--', ...chunk]);
    entries.push(...parseEntries(result.stdout));
  }
  return entries;
}
