import { GitError, splitNul, text } from '../git/git.js';
import type { Engine } from '../snapshot/engine.js';
import { UserError } from '../../shared/errors.js';

/** The three trees of taking one step back: before it, after it, and the files now. */
export interface ReverseMergeTrees {
  before: string;
  after: string;
  now: string;
  /** The conflict markers' name for the files as they were before the step (`before-#5`). */
  beforeLabel: string;
}

/** One side of a conflicted path, as git's merge left it in its index (stage 1, 2 or 3). */
export interface StageEntry {
  mode: string;
  oid: string;
}

/** A path git's merge could not settle: each side that has it (absent: that side has no such file). */
export interface MergeConflict {
  path: string;
  /** After the step (the merge's base). */
  after?: StageEntry;
  /** The files now. */
  now?: StageEntry;
  /** Before the step: what taking it back wants. */
  before?: StageEntry;
}

export interface ReverseMerge {
  /** The merged tree: the clean paths merged, the conflicted ones as git leaves them (markers in text files). */
  tree: string;
  conflicts: MergeConflict[];
}

/** `git merge-tree --write-tree` came with git 2.38. */
export const revertNeedsGit = '2.38';

const stageNames = { 1: 'after', 2: 'now', 3: 'before' } as const;

/**
 * Takes the step back onto the files now with git's own three-way merge (merge-ort, through
 * `git merge-tree --write-tree`): the step's after-tree is the base, the files now one side,
 * its before-tree the other. Paths the later steps left alone come back as before the step;
 * paths they changed too are merged line by line, renames followed; what cannot be settled is
 * a conflict. Nothing in the project is touched: three commits and the merged tree go into
 * the shadow repository's objects, two refs name the sides for the conflict markers (`now`
 * and `before-#N`) and are deleted again. Caller holds the lock.
 */
export async function reverseMerge(engine: Engine, trees: ReverseMergeTrees): Promise<ReverseMerge> {
  const git = (args: readonly string[], input?: string) => engine.repo.git(args, input === undefined ? {} : { input });
  const base = text(await git(['commit-tree', trees.after], 'after the step\n'));
  const sides = [
    ['refs/now', text(await git(['commit-tree', '-p', base, trees.now], 'the files now\n'))],
    [`refs/${trees.beforeLabel}`, text(await git(['commit-tree', '-p', base, trees.before], 'before the step\n'))],
  ] as const;
  for (const [ref, commit] of sides) await git(['update-ref', '--no-deref', ref, commit]);
  try {
    const result = await engine.repo.git(['merge-tree', '--write-tree', '-z', 'now', trees.beforeLabel], { okCodes: [0, 1] });
    return parseMergeTree(result.stdout);
  } catch (error) {
    if (error instanceof GitError && /usage: git merge-tree|unknown option/.test(error.stderr)) {
      throw new UserError(`rewind revert needs git ${revertNeedsGit} or newer (git merge-tree --write-tree): install a newer git, or use \`rewind restore\``, { cause: error });
    }
    throw error;
  } finally {
    for (const [ref] of sides) await git(['update-ref', '-d', '--no-deref', ref]).catch(() => undefined);
  }
}

/**
 * `merge-tree --write-tree -z` output: the tree, then for each conflicted path one record per
 * side `<mode> <oid> <stage>\t<path>`, then an empty record and git's messages (not read: the
 * sides say what happened).
 */
export function parseMergeTree(stdout: Buffer): ReverseMerge {
  const records = splitNul(stdout);
  const tree = records[0] ?? '';
  if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new Error(`git merge-tree gave no tree: ${stdout.toString('utf8').slice(0, 200)}`);
  const byPath = new Map<string, MergeConflict>();
  for (const record of records.slice(1)) {
    const match = /^(\d{6}) ([0-9a-f]{40,64}) ([123])\t([^]*)$/.exec(record);
    if (!match) break;
    const [, mode = '', oid = '', stage = '1', file = ''] = match;
    const conflict = byPath.get(file) ?? { path: file };
    conflict[stageNames[Number(stage) as 1 | 2 | 3]] = { mode, oid };
    byPath.set(file, conflict);
  }
  return { tree, conflicts: [...byPath.values()] };
}
