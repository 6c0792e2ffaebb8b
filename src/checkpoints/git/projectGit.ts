import { runGit, type RunOptions, type RunResult } from './git.js';
import { projectGitEnv, projectGitOptions } from './gitEnv.js';

/**
 * A git command in the user's own repository (at `root`), as `git` there sees it (their
 * global config included), with none of their programs run (projectGitOptions). Read-only
 * questions, and the few writes `rewind fork --branch` makes (objects, one new branch, one
 * linked worktree); `env` adds variables (an identity, a date) to the allowlisted ones.
 */
export function runProjectGit(
  root: string,
  sourceEnv: NodeJS.ProcessEnv,
  args: readonly string[],
  options: Omit<Partial<RunOptions>, 'cwd' | 'env'> & { env?: Record<string, string> } = {},
): Promise<RunResult> {
  const { env, ...rest } = options;
  return runGit([...projectGitOptions, ...args], { ...rest, cwd: root, env: { ...projectGitEnv(sourceEnv), ...env } });
}
