import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { printLeftAlone } from './restore/plan.js';
import { openDiffTarget } from './shared/targetArgs.js';
import { jsonFormats, parseNameStatus } from './shared/diffJson.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('diff'));
    return 0;
  }
  const { checkpoints, id, only, format } = await openDiffTarget(io, 'diff', values, positionals);
  const { preview, from } = await checkpoints.plan(id, only);
  if (values.json) {
    const files = parseNameStatus(await checkpoints.planDiff(from, id, preview, only, jsonFormats.files));
    const patch = values['name-status'] ? {} : { patch: (await checkpoints.planDiff(from, id, preview, only, jsonFormats.patch)).toString('utf8') };
    const leftAlone = preview.leftAlone.map((item) => ({ path: item.path, reason: item.reason }));
    writeLine(io.stdout, JSON.stringify({ id, files, ...patch, leftAlone }, null, 2));
    return 0;
  }
  io.stdout.write(await checkpoints.planDiff(from, id, preview, only, format));
  printLeftAlone(io.stderr, preview.leftAlone);
  return 0;
}
