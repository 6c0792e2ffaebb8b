// Retention as the app and the commands apply it: the policy from config.json, the
// conversations of dropped checkpoints swept with them (layer 2, which the engine never
// reaches), and what to tell the user.
import type { CheckpointRecord, ProjectCheckpoints, PruneResult, RetentionPolicy } from '../../checkpoints/index.js';
import type { RewindConfig } from '../../config/schema.js';
import { conversationStoreOf } from '../../conversation/conversationRestore.js';
import { formatBytes } from '../../shared/format.js';
import { retentionPolicy } from './retentionPolicy.js';
import { sizeDropHeldText } from './storeReport.js';

export { retentionPolicy } from './retentionPolicy.js';

/** Frees the kept conversations of checkpoints that are gone. */
export function sweepConversations(checkpoints: ProjectCheckpoints): (kept: readonly CheckpointRecord[]) => void {
  return (kept) => {
    conversationStoreOf(checkpoints).sweep(kept.map((record) => record.conversation));
  };
}

/** Applies retention if it has anything to do (cheap otherwise), never dropping `keep`; what it did, in one line, or undefined. */
export async function retainIfDue(checkpoints: ProjectCheckpoints, config: RewindConfig, keep: readonly number[] = []): Promise<string | undefined> {
  const policy = retentionPolicy(config);
  if (!(await checkpoints.retentionDue(policy))) return undefined;
  const result = await checkpoints.prune(policy, { keep, onDropped: sweepConversations(checkpoints) });
  return result.byAge.length + result.bySize.length > 0 || result.problem ? pruneSummary(result, policy) : undefined;
}

/** `dropped 12 checkpoints older than 14 days, freed 3.2 MB`. */
export function pruneSummary(result: PruneResult, policy: RetentionPolicy): string {
  const parts: string[] = [];
  const verb = result.dryRun ? 'would drop' : 'dropped';
  if (result.byAge.length > 0) parts.push(`${verb} ${result.byAge.length} checkpoint(s) older than ${policy.days} day(s)`);
  if (result.bySize.length > 0) parts.push(`${verb} the oldest ${result.bySize.length} of the rest: the store is over checkpoint_max_gb (${policy.maxGb} GB)`);
  if (parts.length === 0) parts.push(result.dryRun ? 'nothing to drop' : 'nothing was old enough to drop');
  if (result.sizeDropHeld) parts.push(sizeDropHeldText(policy));
  if (!result.dryRun) parts.push(`freed ${formatBytes(Math.max(0, result.bytesBefore - result.bytesAfter))} (the store is ${formatBytes(result.bytesAfter)})`);
  if (result.problem) parts.push(result.problem);
  return parts.join('; ');
}

