// `rewind fork <id> --branch NAME`: the checkpoint as one new commit on a new branch of the
// user's repository, checked out in a new linked worktree. What it writes there: the
// objects the commit needs (git's own pack transfer), the commit, the branch (and its
// reflog), the worktree's entry. The project's HEAD, index, files, stash and other refs are
// not touched, and no program of the user's runs (hooks, fsmonitor, filters, gpg).
import fs from 'node:fs';
import path from 'node:path';
import { UserError, messageOf } from '../../shared/errors.js';
import { realPathOf } from '../../shared/realPath.js';
import type { Engine } from '../snapshot/engine.js';
import { whyUnrestorable, type CheckpointRecord } from '../store/record.js';
import { copyTreeObjects } from '../git/copyObjects.js';
import { gitDirOf } from '../git/project.js';
import { createBranch, deleteBranch, refuseBranch, resolveCommit } from '../git/projectBranch.js';
import { commitTree } from '../git/projectCommit.js';
import { runProjectGit } from '../git/projectGit.js';
import { TreeFolder } from '../git/treeFolder.js';
import { refuseDestination } from './fork.js';

/** What `rewind fork --branch` is asked. */
export interface ForkBranchOptions {
  branch: string;
  /** The worktree's folder: new, or an empty one. */
  dir: string;
  /** The commit's message (the command names the step and its prompt). */
  message: string;
}

/** Where the new commit's parent came from: the project's HEAD recorded on the checkpoint, HEAD now, or none (no commit yet). */
export type ParentFrom = 'checkpoint' | 'now' | 'none';

/** What `rewind fork --branch` made. */
export interface ForkBranchResult {
  record: CheckpointRecord;
  branch: string;
  commit: string;
  parent: string | null;
  parentFrom: ParentFrom;
  dir: string;
  /** Objects copied into the project's store (those it already had are not). */
  objects: number;
  /** Nested repositories: gitlinks in the commit, empty folders in the worktree. */
  nested: string[];
}

function refuseFolder(dir: string, engine: Engine): void {
  refuseDestination(dir, realPathOf(dir), engine);
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new UserError(`${dir} is not a folder rewind can use (${(error as NodeJS.ErrnoException).code ?? messageOf(error)}): name a new folder with --dir DIR`, { cause: error });
  }
  if (entries.length > 0) throw new UserError(`${dir} exists and is not empty: the branch is checked out in a new or empty folder; name one with --dir DIR`);
}

/** The parent: the project's HEAD when the checkpoint was taken, if the project still has that commit; else HEAD now; else none. */
async function chooseParent(engine: Engine, record: CheckpointRecord): Promise<{ parent: string | undefined; parentFrom: ParentFrom }> {
  const { root } = engine.project;
  const env = engine.repo.sourceEnv;
  const head = record.projectHead;
  const recorded = head && /^[0-9a-f]{40,64}$/.test(head) ? await resolveCommit(root, env, head) : undefined;
  if (recorded) return { parent: recorded, parentFrom: 'checkpoint' };
  const now = await resolveCommit(root, env, 'HEAD');
  return now ? { parent: now, parentFrom: 'now' } : { parent: undefined, parentFrom: 'none' };
}

/** Takes back what a failed fork made (best effort: what could not be undone is said). */
async function undo(engine: Engine, made: { branch?: string; commit: string; worktree?: string; existed: boolean }): Promise<string> {
  const { root } = engine.project;
  const env = engine.repo.sourceEnv;
  const left: string[] = [];
  if (made.worktree) {
    await runProjectGit(root, env, ['worktree', 'remove', '--force', made.worktree]).catch(() => left.push(`the worktree ${made.worktree} (git worktree remove --force)`));
    if (made.existed && !fs.existsSync(made.worktree)) fs.mkdirSync(made.worktree);
  }
  if (made.branch) await deleteBranch(root, env, made.branch, made.commit).catch(() => left.push(`the branch ${made.branch} (git branch -D)`));
  // The objects copied stay, unreachable: the repository's own gc removes them.
  return left.length === 0 ? 'no branch or worktree was left' : `left behind, remove by hand: ${left.join(', ')}`;
}

/**
 * Makes branch `options.branch` in the project's repository: one new commit holding exactly
 * checkpoint `id`'s tree, checked out in a new linked worktree at `options.dir`. Refuses,
 * writing nothing, a project outside git, an unrestorable checkpoint, a branch name that is
 * invalid or taken, and a folder that is not new or empty (or inside the project or store).
 */
export async function forkBranch(engine: Engine, id: number, options: ForkBranchOptions): Promise<ForkBranchResult> {
  const { root } = engine.project;
  const env = engine.repo.sourceEnv;
  if (!engine.project.git) throw new UserError(`${root} is not a git repository, so it has no branches: \`rewind fork ${id}\` (without --branch) writes the checkpoint's files into a new folder`);
  const record = engine.get(id);
  const why = whyUnrestorable(record);
  if (why) throw new UserError(`checkpoint #${id} cannot be forked: ${why}`);
  await refuseBranch(root, env, options.branch);
  refuseFolder(options.dir, engine);
  const existed = fs.existsSync(options.dir);
  const { parent, parentFrom } = await chooseParent(engine, record);
  const objects = await copyTreeObjects(engine.repo, record.tree, root, env);
  const commit = await commitTree(root, env, { tree: record.tree, parent, message: options.message, authorDate: record.time });
  const made: { branch?: string; commit: string; worktree?: string; existed: boolean } = { commit, existed };
  try {
    await createBranch(root, env, options.branch, commit, `rewind fork: checkpoint #${id}`);
    made.branch = options.branch;
    // No checkout by the project's git: its filters, hooks and attributes stay out of it.
    await runProjectGit(root, env, ['worktree', 'add', '--no-checkout', '--quiet', options.dir, options.branch]);
    made.worktree = options.dir;
    const gitDir = gitDirOf(path.join(options.dir, '.git'));
    if (!gitDir) throw new Error(`git worktree add made no .git in ${options.dir}`);
    // The files and the worktree's index, written from the shadow as a restore writes them: the tree's bytes exactly.
    await new TreeFolder(engine.repo, options.dir, path.join(gitDir, 'index')).fill(record.tree);
  } catch (error) {
    const left = await undo(engine, made);
    if (error instanceof UserError) throw new UserError(`${error.message} (${left})`, { cause: error });
    throw new UserError(`checkpoint #${id} could not be forked into branch '${options.branch}' (${left}): ${messageOf(error)}`, { cause: error });
  }
  return { record, branch: options.branch, commit, parent: parent ?? null, parentFrom, dir: options.dir, objects, nested: record.nested };
}
