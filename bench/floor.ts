import fs from 'node:fs';
import path from 'node:path';
import { git, gitAsync } from './lib.js';

/**
 * The git-plumbing floor: a bare shadow repo with alternates and a
 * persistent index, four commands spawned from Node (add -A, write-tree, commit-tree,
 * update-ref). When the tree equals the previous one it stops after write-tree, as any
 * real tool would (no empty checkpoint): two spawns. `seed` copies the project's index
 * first (what Rewind's first snapshot starts from); the cold floor does not.
 */
export class PlumbingFloor {
  private prev: string | undefined;
  private prevTree: string | undefined;
  private n = 0;
  readonly gitDir: string;

  constructor(
    readonly project: string,
    storeRoot: string,
    seed: boolean,
  ) {
    this.gitDir = path.join(storeRoot, `floor-${Math.random().toString(36).slice(2)}.git`);
    git(storeRoot, ['init', '-q', '--bare', this.gitDir]);
    fs.writeFileSync(path.join(this.gitDir, 'objects', 'info', 'alternates'), `${path.join(project, '.git', 'objects')}\n`);
    for (const [key, value] of [['core.untrackedCache', 'true'], ['index.version', '4'], ['core.logAllRefUpdates', 'false']] as const) {
      git(storeRoot, [`--git-dir=${this.gitDir}`, 'config', key, value]);
    }
    if (seed) fs.copyFileSync(path.join(project, '.git', 'index'), path.join(this.gitDir, 'index'));
  }

  private g(args: string[]): Promise<string> {
    return gitAsync(this.project, [`--git-dir=${this.gitDir}`, `--work-tree=${this.project}`, ...args]);
  }

  /** Returns whether it wrote a commit (false: the tree equals the previous one). */
  async snapshot(): Promise<boolean> {
    await this.g(['add', '-A']);
    const tree = await this.g(['write-tree']);
    if (tree === this.prevTree) return false;
    this.prevTree = tree;
    const commit = await this.g(['commit-tree', ...(this.prev ? ['-p', this.prev] : []), '-m', 'floor', tree]);
    await this.g(['update-ref', `refs/checkpoints/${++this.n}`, commit]);
    this.prev = commit;
    return true;
  }

  remove(): void {
    fs.rmSync(this.gitDir, { recursive: true, force: true });
  }
}
