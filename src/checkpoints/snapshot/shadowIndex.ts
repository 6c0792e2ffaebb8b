// Keeping the shadow index a true cache of the work tree: made again when git cannot read it,
// re-seeded when the project pruned objects it borrowed, and brought up to the last checkpoint
// on the paths steps staged without it (scope.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { ShadowRepo } from '../store/shadowRepo.js';
import type { StoreState } from '../store/storeState.js';
import { seedShadowIndex } from './seedIndex.js';
import { clearIndexBehind, readIndexBehind } from './scope.js';

/** The first line of git's message, without its `fatal:` or `error:`. */
export function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.replace(/^(fatal|error): /, '') ?? '';
}

/** The project pruned objects our index borrowed: start again from its current index. */
export async function reseedIndex(repo: ShadowRepo, state: StoreState, maxFileBytes: number): Promise<void> {
  fs.rmSync(repo.indexFile, { force: true });
  const { oversize } = await seedShadowIndex(repo, maxFileBytes);
  Object.assign(state.oversize, oversize);
}

/**
 * Git cannot read the shadow index: it is only a cache of the work tree, so it starts
 * again, from the project's own index where there is one (what a first snapshot does),
 * else empty; the next add stages the files as they are on disk, and the diff against the
 * previous checkpoint says what changed.
 */
export async function rebuildIndex(repo: ShadowRepo, state: StoreState, maxFileBytes: number): Promise<void> {
  for (const name of fs.readdirSync(repo.gitDir)) {
    if (name === 'index' || name.startsWith('sharedindex.')) fs.rmSync(path.join(repo.gitDir, name), { force: true });
  }
  await reseedIndex(repo, state, maxFileBytes);
}

/**
 * Brings the shadow index up to the last checkpoint on the paths steps staged without it
 * (scope.ts readIndexBehind): `git reset -q <tree> -- <paths>` sets just those entries (and
 * what is under them) from the tree they were staged into, so the index is what staging each
 * of those steps with it would have left. When that cannot be read or done, the index is
 * made again from the files (as for a damaged one) and true is returned: then only a walk of
 * the whole tree is exact.
 */
export async function caughtUpByRebuilding(repo: ShadowRepo, state: StoreState, maxFileBytes: number, notes: string[]): Promise<boolean> {
  const behind = readIndexBehind(repo);
  if (behind === null) return false;
  let rebuilt = false;
  try {
    if (behind === undefined) throw new Error(`${repo.store.indexBehind} cannot be read`);
    await repo.git(['reset', '-q', behind.tree, '--pathspec-from-file=-', '--pathspec-file-nul'], { input: behind.paths.map((file) => `:(literal)${file.replace(/\/+$/, '')}\0`).join('') });
  } catch (error) {
    await rebuildIndex(repo, state, maxFileBytes);
    notes.push(`the shadow index in ${repo.gitDir} could not be brought up to the last checkpoint (${error instanceof Error ? firstLine(error.message) : String(error)}): rebuilt it from the files on disk`);
    rebuilt = true;
  }
  clearIndexBehind(repo);
  return rebuilt;
}
