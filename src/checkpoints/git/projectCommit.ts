import { shadowIdentity } from './gitEnv.js';
import { text } from './git.js';
import { runProjectGit } from './projectGit.js';

/** What a new commit in the project is made of. */
export interface NewCommit {
  tree: string;
  /** Its one parent, or none (a first commit). */
  parent: string | undefined;
  message: string;
  /** The author date (ISO 8601): when its files were as the tree holds them. */
  authorDate: string;
}

/**
 * Writes a commit object into the project's repository with `git commit-tree` (the tree's
 * objects must be there already): the user's own identity as git finds it in their config,
 * else Rewind's; never signed (no gpg of the user's runs). No ref moves.
 */
export async function commitTree(root: string, env: NodeJS.ProcessEnv, commit: NewCommit): Promise<string> {
  const known = await runProjectGit(root, env, ['var', 'GIT_COMMITTER_IDENT'], { okCodes: [0, 128] });
  const identity: Record<string, string> =
    known.code === 0
      ? {}
      : { GIT_AUTHOR_NAME: shadowIdentity.name, GIT_AUTHOR_EMAIL: shadowIdentity.email, GIT_COMMITTER_NAME: shadowIdentity.name, GIT_COMMITTER_EMAIL: shadowIdentity.email };
  const parents = commit.parent ? ['-p', commit.parent] : [];
  const made = await runProjectGit(root, env, ['commit-tree', '--no-gpg-sign', commit.tree, ...parents, '-F', '-'], {
    input: commit.message,
    env: { ...identity, GIT_AUTHOR_DATE: commit.authorDate },
  });
  return text(made);
}
