// Read-only questions to the shadow repository that the app asks beside checkpoints.
import { splitNul } from '../git/git.js';
import type { CheckpointRecord } from './record.js';
import { gitText, shadowGitClient } from './gitClient.js';
import type { ShadowRepo } from './shadowRepo.js';

/** The folders the newest restorable checkpoint holds (what a file watcher watches from the start). */
export async function foldersOfNewest(repo: ShadowRepo, records: readonly CheckpointRecord[]): Promise<string[]> {
  const newest = records.findLast((record) => !record.unrestorable);
  if (!newest) return [];
  return splitNul(await gitText(await shadowGitClient(repo), ['ls-tree', '-r', '-d', '--name-only', '-z', newest.tree]));
}

/** Which of these project-relative paths checkpoints leave out by the ignore rules. */
export async function ignoredAmong(repo: ShadowRepo, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0 || !repo.exists()) return new Set();
  const result = await repo.git(['check-ignore', '-z', '--stdin'], { input: `${paths.join('\0')}\0`, okCodes: [0, 1] });
  return new Set(splitNul(result.stdout));
}
