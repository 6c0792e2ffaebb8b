import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { printLeftAlone } from './plan.js';
import { openDiffTarget } from './targetArgs.js';

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
  const { checkpoints, id, only, format } = await openDiffTarget(io, 'diff', values, positionals);
  const { preview, from } = await checkpoints.plan(id, only);
  io.stdout.write(await checkpoints.planDiff(from, id, preview, only, format));
  printLeftAlone(io.stderr, preview.leftAlone);
  return 0;
}
