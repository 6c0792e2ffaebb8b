import fs from 'node:fs';
import path from 'node:path';
import { runGit, splitNul } from '../git/git.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import { MissingObjectError } from './errors.js';
import { entriesAt } from './treeEntries.js';

/** The `.gitignore` files that can rule on `files`: one in every folder above each. */
function rulePaths(files: readonly string[]): string[] {
  const folders = new Set<string>(['']);
  for (const file of files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  return [...folders].map((folder) => (folder === '' ? '.gitignore' : `${folder}/.gitignore`));
}

/**
 * Writes the target tree's `.gitignore` files that lie above `files` into `dir`, at their
 * paths. Only regular files: git (2.32 and later) does not follow a `.gitignore` that is a
 * symlink, so such a one rules on nothing.
 */
async function materialiseRules(repo: ShadowRepo, tree: string, files: readonly string[], dir: string): Promise<void> {
  const wanted = new Set(rulePaths(files));
  const rules = (await entriesAt(repo, tree, [...wanted])).filter((entry) => wanted.has(entry.path) && (entry.mode === '100644' || entry.mode === '100755'));
  if (rules.length === 0) return;
  const reader = repo.objectReader(true);
  try {
    const reads = rules.map((rule) => reader.read(rule.oid));
    for (const [index, rule] of rules.entries()) {
      const object = await reads[index];
      if (!object || 'missing' in object) throw new MissingObjectError(rule.oid, rule.path);
      const file = path.join(dir, rule.path);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, object.data);
    }
  } finally {
    await reader.close();
  }
}

/**
 * Which of `files` the rules of the checkpoint with tree `tree` ignore: its own
 * `.gitignore` files at every depth (read from its objects, not from the disk) and the
 * shadow's info/exclude (the project's info/exclude, the global excludes file,
 * checkpoint_exclude, the heavy patterns). Git's own matcher decides (check-ignore over a
 * scratch work tree holding just those rules), so a file under an ignored folder counts
 * as ignored, exactly as `git status` would have it. `scratch` is an empty folder.
 */
export async function ignoredByCheckpoint(repo: ShadowRepo, tree: string, files: readonly string[], scratch: string): Promise<Set<string>> {
  if (files.length === 0) return new Set();
  await materialiseRules(repo, tree, files, scratch);
  // `./` keeps a name starting with `:` from being read as pathspec magic (check-ignore
  // takes no --literal-pathspecs); -z carries any other byte, newlines included.
  const input = files.map((file) => `./${file}\0`).join('');
  const result = await runGit([`--git-dir=${repo.gitDir}`, `--work-tree=${scratch}`, 'check-ignore', '--no-index', '-z', '--stdin'], {
    cwd: scratch,
    env: repo.env,
    input,
    okCodes: [0, 1],
  });
  return new Set(splitNul(result.stdout).map((file) => file.replace(/^\.\//, '')));
}
