import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';
import { retentionPolicy } from '../services/store/retention.js';
import { storeReportLines } from '../services/store/storeReport.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('checkpoints', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('checkpoints'));
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
