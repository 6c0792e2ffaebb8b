// The branches of the user's own repository, for `rewind fork --branch`: is a name valid
// and free, which commit a name resolves to, create one new branch, take it back.
import { UserError } from '../../shared/errors.js';
import { text } from './git.js';
import { runProjectGit } from './projectGit.js';

/**
 * Refuses a name git would not take for a new branch (`git check-ref-format`, and what
 * `git branch` refuses besides: a leading '-', `HEAD`), and one that is taken: the branch
 * exists, or a branch's folder is in the way (`a` exists and the name is `a/b`, or the
 * other way round). Reads only.
 */
export async function refuseBranch(root: string, env: NodeJS.ProcessEnv, name: string): Promise<void> {
  const invalid = new UserError(`'${name}' is not a valid branch name (see \`git check-ref-format\`): name the branch with --branch NAME, e.g. --branch rewind/try-again`, { exitCode: 2 });
  if (name.trim() === '' || name.startsWith('-') || name === 'HEAD') throw invalid;
  const checked = await runProjectGit(root, env, ['check-ref-format', `refs/heads/${name}`], { okCodes: [0, 1] });
  if (checked.code !== 0) throw invalid;
  const refs = text(await runProjectGit(root, env, ['for-each-ref', '--format=%(refname)', 'refs/heads/'])).split('\n').filter(Boolean);
  const ref = `refs/heads/${name}`;
  if (refs.includes(ref)) throw new UserError(`branch '${name}' already exists: fork never moves a branch; name a new one with --branch NAME`);
  const clash = refs.find((other) => other.startsWith(`${ref}/`) || ref.startsWith(`${other}/`));
  if (clash) throw new UserError(`branch '${name}' cannot be made next to the branch '${clash.slice('refs/heads/'.length)}' (a branch name cannot be a folder of another): name another with --branch NAME`);
}

/** The commit `rev` names in the project (`HEAD`, a hash), or undefined if it has none (unborn, pruned). */
export async function resolveCommit(root: string, env: NodeJS.ProcessEnv, rev: string): Promise<string | undefined> {
  const result = await runProjectGit(root, env, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { okCodes: [0, 1, 128] });
  return result.code === 0 ? text(result) : undefined;
}

/** Creates branch `name` at `commit`; fails, writing nothing, if it exists by then (the empty old value). */
export async function createBranch(root: string, env: NodeJS.ProcessEnv, name: string, commit: string, reason: string): Promise<void> {
  await runProjectGit(root, env, ['update-ref', '-m', reason, `refs/heads/${name}`, commit, '']);
}

/** Deletes branch `name`, only if it still points at `commit` (a fork that failed takes back its branch). */
export async function deleteBranch(root: string, env: NodeJS.ProcessEnv, name: string, commit: string): Promise<void> {
  await runProjectGit(root, env, ['update-ref', '-d', `refs/heads/${name}`, commit]);
}
