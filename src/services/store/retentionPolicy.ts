// Retention's policy as config.json sets it: apart from retention.ts (which sweeps the
// conversations, layer 2, and so loads the agents), so `rewind list` reads it without them.
import type { RetentionPolicy } from '../../checkpoints/index.js';
import type { RewindConfig } from '../../config/schema.js';

export function retentionPolicy(config: RewindConfig): RetentionPolicy {
  return { days: config.checkpoint_retention_days, maxGb: config.checkpoint_max_gb };
}
