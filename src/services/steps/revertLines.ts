// What reverting a step would do, as lines for people: `rewind revert` prints them, the
// picker's `u` shows them.
import type { CheckpointRecord, RevertChange, RevertConflict, RevertPlan } from '../../checkpoints/index.js';
import { fileTextIndent } from '../../shared/messages.js';

const changeWords: Record<RevertChange['how'], [string, string]> = {
  restored: ['restore ', 'as it was before the step'],
  merged: ['merge   ', 'changed later too: merged line by line'],
  deleted: ['delete  ', 'the step created it'],
  created: ['create  ', 'the step deleted it'],
};

const conflictKinds: Record<RevertConflict['kind'], string> = {
  content: 'the step and a later change changed the same lines',
  binary: 'changed by the step and later; git cannot merge it line by line (binary, symlink, submodule, or its mode changed both ways)',
  'created-then-changed': 'the step created it and it was changed since (taking the step back would delete that work)',
  'changed-then-deleted': 'the step changed it and it was deleted since',
  'deleted-then-created': 'the step deleted it and it was created again since, with other bytes',
  other: 'a file on one side and a folder on another',
};

const markerWords: Record<RevertConflict['withMarkers'], string> = {
  markers: 'markers: git conflict markers around each hunk',
  'as-now': 'markers: it stays as it is now',
  'as-before': 'markers: it comes back as it was before the step',
};

/** Hunks shown per file, and lines per hunk, before the rest are counted. */
const hunksShown = 3;
const linesShown = 16;

/** What reverting a step would do, for people: each file, each conflict with its hunks. */
export function revertPlanLines(plan: RevertPlan, record: Pick<CheckpointRecord, 'label' | 'trigger'>): string[] {
  const to = plan.to === null ? 'the files now' : `#${plan.to}`;
  return [`Reverting the step of #${plan.checkpoint} (${record.label || record.trigger}: #${plan.checkpoint} -> ${to}), keeping what came after: ${revertCounts(plan)}:`, ...revertPlanBody(plan)];
}

/** `2 file(s) change, 1 conflict(s)`: how much a revert changes. */
export function revertCounts(plan: RevertPlan): string {
  return `${plan.changes.length} file(s) change${plan.conflicts.length > 0 ? `, ${plan.conflicts.length} conflict(s)` : ''}`;
}

/** The plan's lines under its header: each file, each conflict with its hunks. */
export function revertPlanBody(plan: RevertPlan): string[] {
  const lines: string[] = [];
  for (const change of plan.changes) {
    const [verb, why] = changeWords[change.how];
    lines.push(`  ${verb}  ${change.path}  (${why})`);
  }
  for (const conflict of plan.conflicts) {
    lines.push(`  conflict  ${conflict.path}  (${conflictKinds[conflict.kind]}; keep: it stays as it is now; ${markerWords[conflict.withMarkers]})`);
    for (const hunk of conflict.hunks.slice(0, hunksShown)) {
      const hunkLines = hunk.split('\n');
      for (const line of hunkLines.slice(0, linesShown)) lines.push(`${fileTextIndent}${line}`);
      if (hunkLines.length > linesShown) lines.push(`${fileTextIndent}… ${hunkLines.length - linesShown} more line(s)`);
    }
    if (conflict.hunks.length > hunksShown) lines.push(`${fileTextIndent}… ${conflict.hunks.length - hunksShown} more conflicting hunk(s)`);
  }
  return lines;
}

/** `; 1 conflicted file(s) written with conflict markers, 1 left as it was`: what a done revert did to its conflicts. */
export function conflictWords(plan: RevertPlan, choice: 'none' | 'keep' | 'markers'): string {
  const total = plan.conflicts.length;
  if (total === 0) return '';
  const written = choice === 'markers' ? plan.conflicts.filter((conflict) => conflict.withMarkers !== 'as-now').length : 0;
  const parts = [...(written > 0 ? [`${written} conflicted file(s) written (conflict markers, or as before the step)`] : []), ...(total - written > 0 ? [`${total - written} conflicted file(s) left as they were`] : [])];
  return `; ${parts.join(', ')}`;
}
