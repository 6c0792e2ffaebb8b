import { parseCommandArgs } from './args.js';
import { commandHelp } from './help.js';
import { writeLine, type CommandIO } from './io.js';
import { openDiffTarget } from './targetArgs.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('show', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('show'));
    return 0;
  }
  const { checkpoints, id, only, format } = await openDiffTarget(io, 'show', values, positionals);
  const step = await checkpoints.stepDiff(id, only, format);
  io.stdout.write(step.diff);
  const to = step.to ? `#${step.to.id}` : 'the files now';
  if (step.passedOver.length > 0) writeLine(io.stderr, `rewind: ${step.passedOver.map((n) => `#${n}`).join(', ')} can no longer be read: shown from #${id} to ${to}`);
  if (step.diff.length === 0) writeLine(io.stderr, `rewind: the step of #${id} changed no files${only.length > 0 ? ' there' : ''} (#${id} -> ${to})`);
  return 0;
}
