import { writeLine } from './io.js';
import type { CheckpointRecord, RevertChange, RevertConflict, RevertPlan } from '../checkpoints/index.js';

const changeWords: Record<RevertChange['how'], [string, string]> = {
  restored: ['restore ', 'as it was before the step'],
  merged: ['merge   ', 'changed later too: merged line by line'],
  deleted: ['delete  ', 'the step created it'],
  created: ['create  ', 'the step deleted it'],
};

const conflictWords: Record<RevertConflict['kind'], string> = {
  content: 'the step and a later change changed the same lines',
  binary: 'changed by the step and later; git cannot merge it line by line (binary, symlink)',
  'created-then-changed': 'the step created it and it was changed since (taking the step back would delete that work)',
  'changed-then-deleted': 'the step changed it and it was deleted since',
  'deleted-then-created': 'the step deleted it and it was created again since',
  other: "git's merge could not settle it (renamed on both sides?)",
};

const markerWords: Record<RevertConflict['withMarkers'], string> = {
  markers: 'markers: git conflict markers around each hunk',
  'as-now': 'markers: it stays as it is now',
  'as-before': 'markers: it comes back as it was before the step',
};

/** Hunks shown per file, and lines per hunk, before the rest are counted. */
const hunksShown = 3;
const linesShown = 16;

/** Prints what reverting a step would do, for people: each file, each conflict with its hunks. */
export function printRevertPlan(out: NodeJS.WritableStream, plan: RevertPlan, record: CheckpointRecord): void {
  const to = plan.to === null ? 'the files now' : `#${plan.to}`;
  const count = plan.changes.length + plan.conflicts.length;
  writeLine(out, `Reverting the step of #${plan.checkpoint} (${record.label || record.trigger}: #${plan.checkpoint} -> ${to}), keeping what came after, changes ${count} file(s):`);
  for (const change of plan.changes) {
    const [verb, why] = changeWords[change.how];
    writeLine(out, `  ${verb}  ${change.path}  (${why})`);
  }
  for (const conflict of plan.conflicts) {
    writeLine(out, `  conflict  ${conflict.path}  (${conflictWords[conflict.kind]}; keep: it stays as it is now; ${markerWords[conflict.withMarkers]})`);
    for (const hunk of conflict.hunks.slice(0, hunksShown)) {
      const lines = hunk.split('\n');
      for (const line of lines.slice(0, linesShown)) writeLine(out, `      ${line}`);
      if (lines.length > linesShown) writeLine(out, `      … ${lines.length - linesShown} more line(s)`);
    }
    if (conflict.hunks.length > hunksShown) writeLine(out, `      … ${conflict.hunks.length - hunksShown} more conflicting hunk(s)`);
  }
  if (plan.conflicts.length > 0) writeLine(out, `  ${plan.conflicts.length} conflict(s): nothing is written until you choose (--conflicts keep or --conflicts markers)`);
  writeLine(out, '  your files as they are now are checkpointed first, so `rewind redo` undoes it');
}
