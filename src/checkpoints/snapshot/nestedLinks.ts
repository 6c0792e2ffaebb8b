// The nested repositories and submodules a snapshot holds as gitlinks: which are still
// repositories (their gitlinks set from their HEAD, the add kept out of them), and which are
// folders of files now (their .git gone).
import fs from 'node:fs';
import path from 'node:path';
import type { ShadowRepo } from '../store/shadowRepo.js';
import type { ScriptInput } from './snapshotScript.js';

/**
 * The nested repositories and submodules the shadow index holds as gitlinks (the previous
 * checkpoint's, and the seeded ones) that are still repositories on disk, written for the
 * snapshot script: git's add would ask each for its status, a git run inside it with its
 * own fsmonitor, hooks and filters (no program of the user's runs from a Rewind git call).
 * The script sets their gitlinks from their HEAD and keeps the add out of them. A path
 * that is no longer a repository (no `.git`) is left to the add: its files are staged then.
 */
export function writeNestedLinks(repo: ShadowRepo, candidates: readonly string[]): ScriptInput['nested'] {
  const links = [...new Set(candidates)].filter((link) => fs.existsSync(path.join(repo.project.root, link, '.git')));
  const { nestedList: list, nestedPathspec: pathspec } = repo.store;
  if (links.length === 0) {
    for (const file of [list, pathspec]) fs.rmSync(file, { force: true });
    return undefined;
  }
  fs.writeFileSync(list, links.map((link) => `${link}\0`).join(''), { mode: 0o600 });
  fs.writeFileSync(pathspec, links.map((link) => `:(exclude,literal)${link}\0`).join(''), { mode: 0o600 });
  return { list, pathspec };
}

/**
 * Of the paths held as gitlinks, the folders that are no longer repositories (no `.git`)
 * and hold something: their files are the project's now. An empty one (a submodule not
 * checked out) stays a gitlink, as git keeps it.
 */
export function formerRepositories(repo: ShadowRepo, links: readonly string[]): string[] {
  return [...new Set(links)].filter((link) => {
    const folder = path.join(repo.project.root, link);
    if (fs.existsSync(path.join(folder, '.git'))) return false;
    try {
      return fs.lstatSync(folder).isDirectory() && fs.readdirSync(folder).length > 0;
    } catch {
      return false;
    }
  });
}
