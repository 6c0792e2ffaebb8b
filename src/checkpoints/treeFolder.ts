import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Checkpoints } from './checkpoints.js';
import { runGit, type RunResult } from './git.js';

/**
 * A folder outside the project that holds one checkpoint's files at a time (bisect's test
 * folder, a fork being written). Git writes it from the shadow repo with a private index
 * beside it: the shadow's own index, HEAD and refs are never touched, nor the project.
 * Only the shadow's scrubbed environment is used, so no program of the user's runs.
 */
export class TreeFolder {
  /** The files (the work tree git writes). */
  readonly work: string;
  readonly #index: string;
  readonly #engine: Checkpoints;

  constructor(engine: Checkpoints, work: string, index: string) {
    this.#engine = engine;
    this.work = work;
    this.#index = index;
  }

  #git(args: readonly string[]): Promise<RunResult> {
    const env = { ...this.#engine.repo.env, GIT_INDEX_FILE: this.#index };
    // Whole index, no untracked cache: nothing of this folder is left in the shadow repo.
    const config = ['-c', 'core.splitIndex=false', '-c', 'core.untrackedCache=false'];
    return runGit([`--git-dir=${this.#engine.repo.gitDir}`, `--work-tree=${this.work}`, ...config, ...args], { cwd: this.work, env });
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

/**
 * A new private scratch folder (0700), named so a later restore removes it if this process
 * dies first (`scratchPrefix` + pid, in the store), or in the system's temp folder when the
 * store cannot take one.
 */
export function makeScratch(engine: Checkpoints): string {
  try {
    return fs.mkdtempSync(path.join(engine.store.root, `${engine.store.scratchPrefix}${process.pid}-`));
  } catch {
    return fs.mkdtempSync(path.join(os.tmpdir(), `rewind-${engine.store.scratchPrefix}`));
  }
}

/** Removes a scratch folder, whatever a test left in it (read-only folders included). */
export function removeScratch(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A folder a test made unwritable: make it writable, then remove it.
    makeWritable(dir);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

function makeWritable(dir: string): void {
  try {
    fs.chmodSync(dir, 0o700);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) makeWritable(path.join(dir, entry.name));
    }
  } catch {
    // Not ours to fix: rmSync says what is left.
  }
}
