import path from 'node:path';

/**
 * The folders to watch, those the agent worked in lately first (the folders of `recent`
 * paths, and theirs up to the top): when the system runs out of watches, the folders left
 * unwatched are the ones nothing touched lately.
 */
export function foldersFirst(folders: readonly string[], recent: readonly string[]): string[] {
  const wanted = new Set<string>();
  for (const file of recent) {
    for (let folder = path.posix.dirname(file); folder !== '.' && !wanted.has(folder); folder = path.posix.dirname(folder)) wanted.add(folder);
  }
  const known = new Set(folders);
  const first = [...wanted].filter((folder) => known.has(folder)).sort();
  return [...first, ...folders.filter((folder) => !wanted.has(folder))];
}
