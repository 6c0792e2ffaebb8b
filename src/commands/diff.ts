import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { printLeftAlone } from './restore/plan.js';
import { openDiffTarget } from './shared/targetArgs.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('diff'));
    return 0;
  }
  const { checkpoints, id, only, format } = await openDiffTarget(io, 'diff', values, positionals);
  const { preview, from } = await checkpoints.plan(id, only);
  io.stdout.write(await checkpoints.planDiff(from, id, preview, only, format));
  printLeftAlone(io.stderr, preview.leftAlone);
  return 0;
}
