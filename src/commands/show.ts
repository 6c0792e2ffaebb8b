import path from 'node:path';
import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { openCheckpoints } from './open.js';
import { parseCheckpointId, projectPaths } from './targetArgs.js';

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
  const id = parseCheckpointId(positionals[0], 'show');
  const { checkpoints } = await openCheckpoints(io, values.C, { allowHome: true, keep: [id] });
  checkpoints.get(id);
  const only = projectPaths(checkpoints, path.resolve(io.cwd, values.C ?? '.'), positionals.slice(1), 'rewind show');
  const color = (io.stdout as NodeJS.WriteStream).isTTY && !io.env.NO_COLOR ? '--color=always' : '--no-color';
  const format = values['name-status'] ? ['--name-status'] : ['-p'];
  const step = await checkpoints.stepDiff(id, only, [color, ...format]);
  io.stdout.write(step.diff);
  const to = step.to ? `#${step.to.id}` : 'the files now';
  if (step.passedOver.length > 0) writeLine(io.stderr, `rewind: ${step.passedOver.map((n) => `#${n}`).join(', ')} can no longer be read: shown from #${id} to ${to}`);
  if (step.diff.length === 0) writeLine(io.stderr, `rewind: the step of #${id} changed no files${only.length > 0 ? ' there' : ''} (#${id} -> ${to})`);
  return 0;
}
