import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openDiffTarget } from './shared/targetArgs.js';
import { partsOf, sessionSteps } from '../services/steps/sessionSteps.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('show', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('show'));
    return 0;
  }
  const { checkpoints, id, only, format } = await openDiffTarget(io, 'show', values, positionals);
  const parts = partsOf(sessionSteps(checkpoints.list()), id);
  let shown = 0;
  let end = 'the files now';
  for (const { id: part, through } of parts) {
    const step = await checkpoints.stepDiff(part, only, format, through);
    const to = step.to ? `#${step.to.id}` : 'the files now';
    end = to;
    // A turn's steps one after the other, each named, as the picker's `d` shows them.
    if (parts.length > 1 && step.diff.length > 0) writeLine(io.stdout, `# #${part} ${step.record.label || step.record.trigger}: #${part} -> ${to}`);
    io.stdout.write(step.diff);
    shown += step.diff.length;
    if (step.passedOver.length > 0) writeLine(io.stderr, `rewind: ${step.passedOver.map((n) => `#${n}`).join(', ')} can no longer be read: shown from #${part} to ${to}`);
  }
  const what = parts.length > 1 ? 'turn' : 'step';
  if (shown === 0) writeLine(io.stderr, `rewind: the ${what} of #${id} changed no files${only.length > 0 ? ' there' : ''} (#${id} -> ${end})`);
  return 0;
}
