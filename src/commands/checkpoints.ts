import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { openCheckpoints } from './open.js';
import { retentionPolicy } from '../runtime/retention.js';
import { storeReportLines } from '../runtime/storeReport.js';

const help = `Usage: rewind checkpoints [--json] [-C DIR]

What the checkpoints take on disk: how many this project has, its store's size and every
project's (bytes on disk, as du counts them), the store's folder, the oldest and newest
checkpoint, the retention settings in force and what they drop next, and the stores of
projects whose folder is gone.
  --json   print {"project","store","checkpoints","projectBytes","allBytes","projects",
           "orphans","oldest","newest","retention":{"days","maxGb","dueNow","nextAt","overCap"}}

Free space with \`rewind prune\` (apply retention now) and \`rewind clean\` (delete stores).`;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('checkpoints', argv, { json: { type: 'boolean' } }, false);
  if (values.help) {
    writeLine(io.stdout, help);
    return 0;
  }
  const { checkpoints, config } = await openCheckpoints(io, values.C, { allowHome: true });
  const report = await checkpoints.report(retentionPolicy(config));
  if (values.json) {
    writeLine(io.stdout, JSON.stringify(report));
    return 0;
  }
  for (const line of storeReportLines(report)) writeLine(io.stdout, line);
  return 0;
}
