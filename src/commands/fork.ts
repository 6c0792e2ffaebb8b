import path from 'node:path';
import type { ForkBranchResult, ParentFrom, ProjectCheckpoints } from '../checkpoints/index.js';
import { UsageError } from '../shared/errors.js';
import { forkCommitMessage } from '../services/steps/forkMessage.js';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';
import { parseCheckpointId } from './shared/targetArgs.js';

/** A branch name as a folder name: what is not a letter, digit, '.', '_' or '-' becomes '-'. */
export function folderNameOf(branch: string): string {
  return branch.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'branch';
}

const parentWords: Record<ParentFrom, string> = {
  checkpoint: "the project's HEAD when the checkpoint was taken",
  now: "the project's HEAD now (the checkpoint recorded none, or the repository no longer has it)",
  none: 'no parent (the repository has no commit yet)',
};

function printBranch(io: CommandIO, made: ForkBranchResult, json: boolean): void {
  const { record } = made;
  if (json) {
    const { id, time, tree } = record;
    writeLine(io.stdout, JSON.stringify({ id, dir: made.dir, time, label: record.label || record.trigger, nested: made.nested, branch: made.branch, commit: made.commit, tree, parent: made.parent, parentFrom: made.parentFrom, objects: made.objects }, null, 2));
    return;
  }
  const on = made.parent ? `on top of ${made.parent.slice(0, 12)}, ${parentWords[made.parentFrom]}` : parentWords.none;
  writeLine(io.stdout, `Branch ${made.branch}: commit ${made.commit.slice(0, 12)} holds checkpoint #${record.id}'s files, ${on}`);
  writeLine(io.stdout, `Checked out in ${made.dir} (a linked worktree: \`git worktree remove\` takes it away). Try it: cd ${JSON.stringify(made.dir)}`);
  if (made.nested.length > 0) writeLine(io.stderr, `rewind: nested repositories are empty folders in the worktree (checkpoints do not hold their files): ${made.nested.join(', ')}`);
}

async function forkToBranch(io: CommandIO, checkpoints: ProjectCheckpoints, id: number, branch: string, dir: string | undefined, json: boolean): Promise<number> {
  const root = checkpoints.projectRoot;
  const folder = dir === undefined ? `${root}-${folderNameOf(branch)}` : path.resolve(io.cwd, dir);
  const made = await checkpoints.forkBranch(id, { branch, dir: folder, message: forkCommitMessage(checkpoints.list(), id) });
  printBranch(io, made, json);
  return 0;
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('fork', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('fork'));
    return 0;
  }
  const id = parseCheckpointId(positionals[0], 'fork');
  if (positionals.length > 1) throw new UsageError(`unexpected '${positionals[1]}': name the folder with --dir DIR (see \`rewind fork --help\`)`);
  if (values.dir !== undefined && values.dir.trim() === '') throw new UsageError('--dir got an empty path: name a new folder');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, keep: [id] });
  checkpoints.get(id);
  if (values.branch !== undefined) return forkToBranch(io, checkpoints, id, values.branch, values.dir, values.json === true);
  const root = checkpoints.projectRoot;
  const dir = values.dir === undefined ? `${root}-checkpoint-${id}` : path.resolve(io.cwd, values.dir);
  const { record, nested } = await checkpoints.fork(id, dir);
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ id: record.id, dir, time: record.time, label: record.label || record.trigger, nested }, null, 2));
    return 0;
  }
  writeLine(io.stdout, `Checkpoint #${record.id}'s files are in ${dir}`);
  writeLine(io.stdout, `Ignored files (node_modules, build output) are not in checkpoints: install them there if needed. Try it: cd ${JSON.stringify(dir)}`);
  if (nested.length > 0) writeLine(io.stderr, `rewind: nested repositories are empty folders in the fork (checkpoints do not hold their files): ${nested.join(', ')}`);
  return 0;
}
