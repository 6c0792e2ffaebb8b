import fs from 'node:fs';
import path from 'node:path';
import { splitNul } from '../git/git.js';
import type { ShadowRepo } from './shadowRepo.js';

/** Bytes of the files a first snapshot would copy (untracked, not ignored). */
export async function measureUntracked(repo: ShadowRepo): Promise<number> {
  const listed = await repo.git(['ls-files', '-o', '-z', '--exclude-standard']);
  let total = 0;
  for (const file of splitNul(listed.stdout)) {
    try {
      total += fs.lstatSync(path.join(repo.project.root, file)).size;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}
