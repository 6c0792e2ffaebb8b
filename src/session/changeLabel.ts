import type { StepChanges } from '../checkpoints/checkpoints.js';

const kinds = [
  { key: 'deleted', word: 'deleted' },
  { key: 'added', word: 'added' },
  { key: 'modified', word: 'edited' },
] as const;

/** `tests/` for names that all lie in one top folder (and are more than a few), else the names. */
function named(paths: readonly string[], count: number): string[] {
  const tops = new Set(paths.map((file) => (file.includes('/') ? `${file.split('/')[0]}/` : file)));
  if (count > paths.length && tops.size === 1 && [...tops][0]?.endsWith('/')) return [...tops];
  return [...paths];
}

/**
 * The label of a checkpoint taken after a burst of file changes, from what its step really
 * changed: counts by kind, biggest first, then names of the biggest kinds first, so the
 * largest part of a change is never hidden behind a few small ones
 * (`files changed: 300 deleted, 1 added: tests/, run.sh`). Without a diff (unknown), the
 * paths the watcher saw.
 */
export function changeLabel(changes: StepChanges, watched: readonly string[]): string {
  const { summary, examples } = changes;
  if (!summary || !examples) return `files changed: ${listed(watched.length > 0 ? watched : changes.paths, Math.max(watched.length, changes.paths.length))}`;
  const present = kinds.filter((kind) => summary[kind.key] > 0).sort((a, b) => summary[b.key] - summary[a.key]);
  if (present.length === 0) return 'files changed';
  const counts = present.map((kind) => `${summary[kind.key]} ${kind.word}`).join(', ');
  const names = present.flatMap((kind) => named(examples[kind.key], summary[kind.key]));
  const total = present.reduce((sum, kind) => sum + summary[kind.key], 0);
  return `files changed: ${counts}: ${listed(names, total)}`;
}

/** The first three names, and `…` when there are more. */
function listed(names: readonly string[], total: number): string {
  const shown = names.slice(0, 3);
  return `${shown.join(', ')}${total > shown.length && names.length > 0 ? ', …' : ''}`;
}
