import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';
import { parseCheckpointId } from './shared/targetArgs.js';

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
