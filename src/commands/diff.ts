import path from 'node:path';
import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { openCheckpoints } from './open.js';
import { printLeftAlone } from './plan.js';
import { parseCheckpointId, projectPaths } from './targetArgs.js';

const help = `Usage: rewind diff <id> [PATH...] [--name-status] [-C DIR]

What restoring checkpoint <id> would change: a unified diff from the files as they are
now to the checkpoint, exactly the files \`rewind restore <id>\` would write and delete
(what it leaves alone, such as ignored files and nested repositories, is listed on stderr
instead). Binary files are named, not printed. PATHs (files or folders) limit it, as
\`--only\` limits a restore.

Examples:
  rewind diff 12
  rewind diff 12 src/ --name-status`;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv, { 'name-status': { type: 'boolean' } });
  if (values.help) {
    writeLine(io.stdout, help);
    return 0;
  }
  const id = parseCheckpointId(positionals[0], 'diff');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, keep: [id] });
  // An unknown id is said before anything about the paths.
  checkpoints.get(id);
  const only = projectPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), positionals.slice(1), 'rewind diff');
  const { preview, from } = await checkpoints.plan(id, only);
  const color = (io.stdout as NodeJS.WriteStream).isTTY && !io.env.NO_COLOR ? '--color=always' : '--no-color';
  const format = values['name-status'] ? ['--name-status'] : ['-p'];
  io.stdout.write(await checkpoints.planDiff(from, id, preview, only, [color, ...format]));
  printLeftAlone(io.stderr, preview.leftAlone);
  return 0;
}
