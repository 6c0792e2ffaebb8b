import { runGit, type RunOptions, type RunResult } from './git.js';
import { projectGitEnv, projectGitOptions } from './gitEnv.js';

/**
 * A read-only git command in the user's own repository (at `root`), as `git` there sees
 * it (their global config included), with none of their programs run (projectGitOptions).
 */
export function runProjectGit(root: string, sourceEnv: NodeJS.ProcessEnv, args: readonly string[], options: Omit<Partial<RunOptions>, 'cwd' | 'env'> = {}): Promise<RunResult> {
  return runGit([...projectGitOptions, ...args], { ...options, cwd: root, env: projectGitEnv(sourceEnv) });
}
