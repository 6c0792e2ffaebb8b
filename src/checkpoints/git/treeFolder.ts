import { runGit, type RunResult } from './git.js';

/**
 * A folder outside the project that holds one checkpoint's files at a time (bisect's test
 * folder, a fork being written). Git writes it from the shadow repo with a private index
 * beside it: the shadow's own index, HEAD and refs are never touched, nor the project.
 * Only the shadow's scrubbed environment is used, so no program of the user's runs.
 */
/** The repository a folder is written from: its git dir and the scrubbed environment its git runs with. */
export interface SourceRepo {
  readonly gitDir: string;
  readonly env: Record<string, string>;
}

export class TreeFolder {
  /** The files (the work tree git writes). */
  readonly work: string;
  readonly #index: string;
  readonly #repo: SourceRepo;

  constructor(repo: SourceRepo, work: string, index: string) {
    this.#repo = repo;
    this.work = work;
    this.#index = index;
  }

  #git(args: readonly string[]): Promise<RunResult> {
    const env = { ...this.#repo.env, GIT_INDEX_FILE: this.#index };
    // Whole index, no untracked cache: nothing of this folder is left in the shadow repo.
    const config = ['-c', 'core.splitIndex=false', '-c', 'core.untrackedCache=false'];
    return runGit([`--git-dir=${this.#repo.gitDir}`, `--work-tree=${this.work}`, ...config, ...args], { cwd: this.work, env });
  }

  /**
   * Makes the folder hold exactly `tree`: files that differ (or that a test changed) are
   * rewritten, files the tree lacks are deleted, files the tree's ignore rules ignore
   * (node_modules a setup command installed, say) are kept.
   */
  async checkout(tree: string): Promise<void> {
    await this.fill(tree);
    await this.#git(['clean', '-ffdq']);
  }

  /** Writes `tree` into the folder (an empty one, or one this folder wrote before). */
  async fill(tree: string): Promise<void> {
    await this.#git(['read-tree', '--reset', '-u', tree]);
  }
}
