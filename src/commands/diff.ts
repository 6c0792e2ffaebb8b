import path from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { writeLine, type CommandIO } from '../cli/io.js';
import { UsageError, UserError } from '../errors.js';
import { openCheckpoints } from './open.js';

const help = `Usage: rewind diff <id> [PATH...] [--name-status] [-C DIR]

What restoring checkpoint <id> would change: a unified diff from the files as they are
now to the checkpoint. Binary files are named, not printed. PATHs limit the diff.`;

export function parseCheckpointId(raw: string | undefined, command: string): number {
  if (raw === undefined) throw new UsageError(`missing checkpoint id (see \`rewind ${command} --help\`; \`rewind list\` shows the ids)`);
  const id = Number(raw.replace(/^#/, ''));
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`'${raw}' is not a checkpoint id: ids are whole numbers as \`rewind list\` shows them`);
  return id;
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv, { 'name-status': { type: 'boolean' } });
  if (values.help) {
    writeLine(io.stdout, help);
    return 0;
  }
  const id = parseCheckpointId(positionals[0], 'diff');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true });
  const target = checkpoints.get(id);
  const { tree: current } = await checkpoints.currentTree();
  const base = path.resolve(io.cwd, values.C ?? '.');
  const paths = positionals.slice(1).map((file) => {
    const relative = path.relative(checkpoints.project.root, path.resolve(base, file));
    if (relative.startsWith('..')) throw new UserError(`${file} is outside the project ${checkpoints.project.root}`);
    return relative === '' ? '.' : relative;
  });
  const color = (io.stdout as NodeJS.WriteStream).isTTY ? '--color=always' : '--no-color';
  const format = values['name-status'] ? ['--name-status'] : ['-p'];
  const result = await checkpoints.repo.git(['diff-tree', '-r', '--no-renames', color, ...format, current, target.tree, '--', ...paths]).catch((error: unknown) => {
    throw new UserError(`cannot read checkpoint #${id}: its objects are missing (the project's own git gc pruned them); it is no longer restorable`, { cause: error });
  });
  io.stdout.write(result.stdout);
  return 0;
}
