import { writeLine } from '../shared/io.js';
import type { CheckpointRecord, RevertPlan } from '../../checkpoints/index.js';
import { revertPlanLines } from '../../services/steps/revertLines.js';

/** Prints what reverting a step would do, for people, and what happens next. */
export function printRevertPlan(out: NodeJS.WritableStream, plan: RevertPlan, record: CheckpointRecord): void {
  for (const line of revertPlanLines(plan, record)) writeLine(out, line);
  if (plan.conflicts.length > 0) writeLine(out, `  ${plan.conflicts.length} conflict(s): nothing is written until you choose (--conflicts keep or --conflicts markers)`);
  writeLine(out, '  your files as they are now are checkpointed first, so `rewind redo` undoes it');
}
