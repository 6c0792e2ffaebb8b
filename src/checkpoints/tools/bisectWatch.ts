// What bisect's tests did to the project: its tests run in a scratch folder, but a test that
// writes by absolute path reaches the project all the same. So the project (every file,
// ignored ones included, and its git dirs) is looked at before the first test and after
// each one, and any entry whose lstat differs is named. A write, truncate, chmod, chown,
// rename or link always moves the inode's ctime (only the kernel sets it), so an entry
// with the same inode, size, mode, owner, mtime and ctime was not written.
import fs from 'node:fs';
import path from 'node:path';

/** One place looked at: `dir`, shown to the user as `label` (relative to the project, or absolute). */
export interface WatchedDir {
  dir: string;
  label: string;
}

/** What one look saw: each entry's shown path -> its lstat facts; folders that could not be read. */
export interface ProjectLook {
  entries: Map<string, string>;
  unreadable: Set<string>;
}

/** What differs between two looks (shown paths; a folder added or removed is named alone). */
export interface ProjectChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

function factsOf(stat: fs.BigIntStats): string {
  const owner = `${stat.mode.toString(8)} ${stat.uid}:${stat.gid} ${stat.dev}:${stat.ino}`;
  // A folder's size and times move when an entry in it comes or goes: that entry is named instead.
  if (stat.isDirectory()) return `dir ${owner}`;
  return `${owner} ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs} ${stat.nlink}`;
}

async function lookInto(dir: string, label: string, skip: ReadonlySet<string>, device: bigint, look: ProjectLook): Promise<void> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch (error) {
    // Gone meanwhile: its removal is what the parent's look shows.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') look.unreadable.add(label);
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const full = path.join(dir, name);
      if (skip.has(full)) return;
      const shown = label === '' ? name : `${label}/${name}`;
      let stat: fs.BigIntStats;
      try {
        stat = await fs.promises.lstat(full, { bigint: true });
      } catch {
        return;
      }
      look.entries.set(shown, factsOf(stat));
      // Never into another file system mounted inside (a bind mount of / would be everything).
      if (stat.isDirectory() && stat.dev === device) await lookInto(full, shown, skip, device, look);
    }),
  );
}

/**
 * Looks at every entry under `dirs` (symlinks not followed, other file systems not entered,
 * `skip` left out). Never throws: what cannot be read is in `unreadable`.
 */
export async function lookAtProject(dirs: readonly WatchedDir[], skip: readonly string[]): Promise<ProjectLook> {
  const look: ProjectLook = { entries: new Map(), unreadable: new Set() };
  const skipped = new Set(skip);
  for (const { dir, label } of dirs) {
    let stat: fs.BigIntStats;
    try {
      stat = await fs.promises.lstat(dir, { bigint: true });
    } catch {
      look.unreadable.add(label || '.');
      continue;
    }
    if (label !== '') look.entries.set(label, factsOf(stat));
    if (stat.isDirectory()) await lookInto(dir, label, skipped, stat.dev, look);
  }
  return look;
}

function outermost(paths: string[], within: ReadonlySet<string>): string[] {
  return paths.filter((shown) => {
    for (let at = shown.lastIndexOf('/'); at > 0; at = shown.lastIndexOf('/', at - 1)) {
      if (within.has(shown.slice(0, at))) return false;
    }
    return true;
  });
}

/** What changed from `before` to `after`, or undefined when nothing did. */
export function compareLooks(before: ProjectLook, after: ProjectLook): ProjectChanges | undefined {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [shown, facts] of after.entries) {
    const was = before.entries.get(shown);
    if (was === undefined) added.push(shown);
    else if (was !== facts) changed.push(shown);
  }
  const removed = [...before.entries.keys()].filter((shown) => !after.entries.has(shown));
  if (added.length + removed.length + changed.length === 0) return undefined;
  const sort = (paths: string[]) => paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    added: sort(outermost(added, new Set(added))),
    removed: sort(outermost(removed, new Set(removed))),
    changed: sort(changed),
  };
}

/** `changed a, b; removed c; added d and 3 more`: at most `max` paths in all. */
export function describeChanges(changes: ProjectChanges, max = 8): string {
  let room = max;
  const parts: string[] = [];
  let more = 0;
  for (const [verb, paths] of [
    ['changed', changes.changed],
    ['removed', changes.removed],
    ['added', changes.added],
  ] as const) {
    if (paths.length === 0) continue;
    const shown = paths.slice(0, Math.max(0, room));
    room -= shown.length;
    more += paths.length - shown.length;
    if (shown.length > 0) parts.push(`${verb} ${shown.join(', ')}`);
  }
  return `${parts.join('; ')}${more > 0 ? ` and ${more} more` : ''}`;
}
