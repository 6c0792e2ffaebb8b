// Refs read from a git dir's files, without a git process (the hot paths: each snapshot reads
// the project's HEAD, each restore the redo stack): a loose ref is a file of its name under the
// git dir; `packed-refs` holds `<oid> <name>` lines, after a `# pack-refs` header, each maybe
// followed by a `^<oid>` line (the tag it peels to). A loose ref wins over a packed one.
import fs from 'node:fs';
import path from 'node:path';

const objectId = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The packed refs of `gitDir`: name -> object id (none when there is no packed-refs file). */
export function packedRefs(gitDir: string): Map<string, string> {
  const refs = new Map<string, string>();
  let content: string;
  try {
    content = fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
  } catch {
    return refs;
  }
  for (const line of content.split('\n')) {
    const space = line.indexOf(' ');
    const oid = line.slice(0, space);
    if (space > 0 && objectId.test(oid)) refs.set(line.slice(space + 1), oid);
  }
  return refs;
}

/**
 * What `ref` points at: its loose file in the first of `dirs` that has one (a worktree's own
 * git dir before the common one), else its packed entry in the last of them. Its text as it
 * is (an object id, or `ref: <name>` for a symbolic ref).
 */
export function readRef(dirs: readonly string[], ref: string): string | undefined {
  for (const dir of dirs) {
    try {
      return fs.readFileSync(path.join(dir, ref), 'utf8').trim();
    } catch {
      // Not a loose ref here.
    }
  }
  const last = dirs.at(-1);
  return last === undefined ? undefined : packedRefs(last).get(ref);
}

/** Whether `ref` exists in `gitDir`, loose or packed. */
export function refExists(gitDir: string, ref: string): boolean {
  return fs.existsSync(path.join(gitDir, ref)) || packedRefs(gitDir).has(ref);
}

/** The names of the refs under `prefix` (`refs/checkpoints/`), loose (at any depth) and packed, each once. */
export function refsUnder(gitDir: string, prefix: string): string[] {
  const names = new Set<string>();
  const walk = (relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(gitDir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(`${relative}${entry.name}/`);
      else if (entry.isFile() && !entry.name.endsWith('.lock')) names.add(`${relative}${entry.name}`);
    }
  };
  walk(prefix);
  for (const name of packedRefs(gitDir).keys()) if (name.startsWith(prefix)) names.add(name);
  return [...names];
}
