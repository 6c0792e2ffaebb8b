import path from 'node:path';
import type { Engine } from '../snapshot/engine.js';
import { text } from '../git/git.js';
import type { RestorePlan } from './plan.js';
import { pathspecs } from './planRestore.js';
import { withScratch } from './staging.js';

const noOid = '0'.repeat(40);

/**
 * The tree the plan makes of `from`: its writes and deletes applied in git's own index (a
 * throwaway one in `scratch`), nothing else. Input goes on stdin, so any number of paths
 * and any name fits.
 */
export async function treeWith(engine: Engine, from: string, plan: RestorePlan, scratch: string): Promise<string> {
  const env = { ...engine.repo.env, GIT_INDEX_FILE: path.join(scratch, 'index') };
  // Whole, not split: a split index would leave its shared part in the shadow repo.
  const git = (args: readonly string[], input?: string) => engine.repo.git(['-c', 'core.splitIndex=false', ...args], { env, input });
  await git(['read-tree', from]);
  // Deletions first: a file may be replaced by a folder of the same name.
  const lines = [...plan.deletes.map((file) => `0 ${noOid}\t${file}`), ...plan.writes.map((write) => `${write.mode} ${write.oid}\t${write.path}`)];
  await git(['update-index', '-z', '--index-info'], lines.map((line) => `${line}\0`).join(''));
  return text(await git(['write-tree']));
}

/**
 * `git diff-tree -r <format>` from the files now (`from`) to what the restore makes of
 * them: exactly the plan's writes and deletes, nothing it leaves alone. `rewind diff` and
 * the picker's preview print this, so they show what a restore does.
 */
export async function diffOfPlan(engine: Engine, from: string, target: string, plan: RestorePlan, only: readonly string[], format: readonly string[]): Promise<Buffer> {
  const args = ['diff-tree', '-r', '--no-renames', ...format, from];
  // Nothing left alone: the plan is the whole tree diff (within `only`).
  if (plan.leftAlone.length === 0) {
    return (await engine.repo.git([...args, target, ...pathspecs(only)])).stdout;
  }
  if (plan.writes.length + plan.deletes.length === 0) return Buffer.alloc(0);
  const to = await withScratch(engine, (scratch) => treeWith(engine, from, plan, scratch));
  return (await engine.repo.git([...args, to])).stdout;
}
