import fs from 'node:fs';
import path from 'node:path';
import { splitNul } from './git.js';
import type { ShadowRepo } from './shadowRepo.js';

/**
 * Seeds the shadow index with a copy of the project's own index, so the first snapshot
 * of a big repository reuses git's cached stat data and hashes only what changed,
 * instead of every file (objects are found through alternates). Entries the user marked
 * assume-unchanged or skip-worktree are unmarked: the shadow must see every change.
 * Returns false (and leaves no index) when there is nothing usable to copy.
 */
export async function seedShadowIndex(repo: ShadowRepo): Promise<boolean> {
  const git = repo.project.git;
  if (!git) return false;
  const source = path.join(git.gitDir, 'index');
  if (!fs.existsSync(source)) return false;
  try {
    fs.copyFileSync(source, repo.indexFile);
    for (const name of fs.readdirSync(git.gitDir)) {
      if (name.startsWith('sharedindex.')) fs.copyFileSync(path.join(git.gitDir, name), path.join(repo.gitDir, name));
    }
    const listed = await repo.git(['ls-files', '-v', '-z'], { timeoutMs: 60_000 });
    const marked = splitNul(listed.stdout)
      .filter((line) => /^[a-zS]/.test(line))
      .map((line) => line.slice(2));
    if (marked.length > 0) {
      await repo.git(['update-index', '--no-assume-unchanged', '--no-skip-worktree', '-z', '--stdin'], {
        input: `${marked.join('\0')}\0`,
      });
    }
    return true;
  } catch {
    fs.rmSync(repo.indexFile, { force: true });
    return false;
  }
}
