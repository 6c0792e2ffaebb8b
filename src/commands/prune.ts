import { parseCommandArgs } from './args.js';
import { writeLine, type CommandIO } from './io.js';
import { openCheckpoints } from './open.js';
import { pruneSummary, retentionPolicy, sweepConversations } from '../runtime/retention.js';

const help = `Usage: rewind prune [--dry-run] [--json] [-C DIR]

Applies retention now (rewind also applies it whenever it opens the project): checkpoints
older than checkpoint_retention_days go; if the store is still over checkpoint_max_gb, the
oldest half of the rest goes too; then the space is reclaimed. The newest checkpoint, and
one a restore of the last hour would go back to (\`rewind redo\`), are always kept.
  --dry-run   say what would go, change nothing
  --json      print {"dryRun","byAge","bySize","bytesBefore","bytesAfter"} (and "problem",
              "sizeDropHeld" when there is one)
Exits 1 when checkpoints were dropped but their space could not be reclaimed (run it again).

Examples:
  rewind prune --dry-run
  rewind config set checkpoint_retention_days 3 && rewind prune`;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandArgs('prune', argv, { json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } }, false);
  if (values.help) {
    writeLine(io.stdout, help);
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
