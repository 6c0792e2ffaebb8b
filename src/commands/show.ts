import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { openDiffTarget } from './targetArgs.js';

const help = `Usage: rewind show <id> [PATH...] [--name-status] [-C DIR]

What checkpoint <id>'s own step changed, as a diff: from the checkpoint to the next one
(for the newest, to the files as they are now). Checkpoints are taken before each step,
so this is what the step named on <id> did. PATHs (files or folders) limit it.
(\`rewind diff <id>\` is different: what restoring <id> would change now.)

Examples:
  rewind show 12
  rewind show 12 src/ --name-status`;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('show', argv, { 'name-status': { type: 'boolean' } });
  if (values.help) {
    writeLine(io.stdout, help);
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
