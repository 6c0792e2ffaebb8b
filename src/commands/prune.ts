import { parseCommandArgs } from './shared/args.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { openCheckpoints } from './shared/open.js';
import { pruneSummary, retentionPolicy, sweepConversations } from '../services/store/retention.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('prune', argv);
  if (values.help) {
    writeLine(io.stdout, commandHelp('prune'));
    return 0;
  }
  const dryRun = values['dry-run'] === true;
  const { checkpoints, config } = await openCheckpoints(io, values.C, { allowHome: true, retention: false });
  const policy = retentionPolicy(config);
  const result = await checkpoints.prune(policy, { dryRun, reclaimAlways: true, onDropped: sweepConversations(checkpoints) });
  if (values.json) {
    const { byAge, bySize, bytesBefore, bytesAfter, skipped, problem, sizeDropHeld } = result;
    writeLine(io.stdout, JSON.stringify({ dryRun, byAge, bySize, bytesBefore, bytesAfter, ...(skipped ? { skipped } : {}), ...(problem ? { problem } : {}), ...(sizeDropHeld ? { sizeDropHeld } : {}) }));
    return skipped || problem ? 1 : 0;
  }
  if (result.skipped) {
    writeLine(io.stderr, `rewind: nothing pruned: ${result.skipped}`);
    return 1;
  }
  const ids = [...result.byAge, ...result.bySize];
  writeLine(io.stdout, pruneSummary(result, policy));
  if (ids.length > 0) writeLine(io.stdout, `${dryRun ? 'would go' : 'gone'}: ${ids.map((id) => `#${id}`).join(' ')}`);
  if (!checkpoints.initialized) writeLine(io.stdout, `no checkpoints yet for ${checkpoints.projectRoot}`);
  return result.problem ? 1 : 0;
}
