// The error a revert with conflicts and no choice made throws (revert.ts), in a file of its
// own: the engine's door hands it out for a caller to recognise, and a caller that only takes
// checkpoints imports that door without loading the revert, its merge and the restore.
import { UserError } from '../../shared/errors.js';
import type { RevertPlan } from './revertPlan.js';

/** A revert with conflicts and no choice made: nothing was written. */
export class RevertConflictsError extends UserError {
  constructor(readonly plan: RevertPlan) {
    super(`reverting the step of #${plan.checkpoint} conflicts in ${plan.conflicts.length} file(s) (${plan.conflicts.map((conflict) => conflict.path).join(', ')}): nothing was written; choose --conflicts keep or --conflicts markers (see \`rewind revert ${plan.checkpoint} --dry-run\`)`);
  }
}
