import { runGit } from './git.js';
import { runProjectGit } from './projectGit.js';
import type { SourceRepo } from './treeFolder.js';

/** The number of objects a pack holds: its header (`PACK`, version, count), as git wrote it. */
function packObjectCount(pack: Buffer): number {
  if (pack.length < 12 || pack.toString('latin1', 0, 4) !== 'PACK') throw new Error('git pack-objects wrote no pack');
  return pack.readUInt32BE(8);
}

/**
 * Puts every object of `tree` that the repository at `root` lacks into its object store,
 * through git's own transfer machinery: `rev-list --objects | pack-objects --local` in
 * `from` (the shadow: objects it borrows from the project through its alternates are
 * already there and are left out), then `index-pack --stdin` in the project. Nothing else of
 * the project is written. Returns how many objects were copied (0: no pack is written).
 */
export async function copyTreeObjects(from: SourceRepo, tree: string, root: string, sourceEnv: NodeJS.ProcessEnv): Promise<number> {
  const shadow = (args: readonly string[], input?: Buffer) => runGit([`--git-dir=${from.gitDir}`, ...args], { cwd: from.gitDir, env: from.env, input });
  const listed = await shadow(['rev-list', '--objects', tree]);
  const pack = (await shadow(['pack-objects', '--stdout', '--local', '-q'], listed.stdout)).stdout;
  const count = packObjectCount(pack);
  if (count > 0) await runProjectGit(root, sourceEnv, ['index-pack', '--stdin'], { input: pack });
  return count;
}
