// Read-only questions to the shadow repository that the app asks beside checkpoints.
import fs from 'node:fs';
import path from 'node:path';
import { splitNul } from '../git/git.js';
import type { CheckpointRecord } from './record.js';
import type { ShadowRepo } from './shadowRepo.js';

/**
 * The folders the newest restorable checkpoint holds (what a file watcher watches from the
 * start). Through the runner, not simple-git: the app asks this at every start, while the
 * agent starts, and loading simple-git holds the event loop ~30 ms (an agent's question to
 * its terminal waits that long).
 */
export async function foldersOfNewest(repo: ShadowRepo, records: readonly CheckpointRecord[]): Promise<string[]> {
  const newest = records.findLast((record) => !record.unrestorable);
  if (!newest) return [];
  return splitNul((await repo.storeGit(['ls-tree', '-r', '-d', '--name-only', '-z', newest.tree])).stdout);
}

/**
 * Which of these project-relative paths checkpoints leave out by the ignore rules (a file
 * the shadow index tracks never is). The rules are matched first without the index (on a
 * big tree, reading it is most of what a check-ignore costs): only the paths they match are
 * asked again with it, to keep the tracked ones.
 */
export async function ignoredAmong(repo: ShadowRepo, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0 || !repo.exists()) return new Set();
  const ruled = await checkIgnore(repo, paths, ['--no-index']);
  return ruled.length === 0 ? new Set() : new Set(await checkIgnore(repo, ruled, []));
}

async function checkIgnore(repo: ShadowRepo, paths: readonly string[], options: string[]): Promise<string[]> {
  const result = await repo.git(['check-ignore', ...options, '-z', '--stdin'], { input: `${paths.join('\0')}\0`, okCodes: [0, 1] });
  return splitNul(result.stdout);
}

/**
 * What `ignoredAmong`'s answers rest on besides the paths themselves: the shadow's exclude
 * rules and its index (a tracked file is never ignored). The same stamp, the same answers
 * for paths not changed since (a .gitignore in the tree is the caller's to watch).
 */
export function ignoreStamp(repo: ShadowRepo): string {
  return [path.join(repo.gitDir, 'info', 'exclude'), repo.indexFile].map(statStamp).join('|');
}

function statStamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'none';
  }
}
