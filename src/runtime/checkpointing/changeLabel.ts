import type { StepChanges } from '../../checkpoints/index.js';

const kinds = [
  { key: 'deleted', word: 'deleted' },
  { key: 'added', word: 'added' },
  { key: 'modified', word: 'edited' },
] as const;

/** The names for one kind: its one folder when all its paths lie in it (and they are more than a few), else its paths; and whether that names them all. */
function named(paths: readonly string[], count: number, folder: string | undefined): { names: string[]; complete: boolean } {
  if (folder !== undefined && count > paths.length) return { names: [folder], complete: true };
  return { names: [...paths], complete: paths.length >= count };
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
  if (!summary || !examples) return `files changed: ${listed(watched.length > 0 ? watched : changes.paths, true)}`;
  const present = kinds.filter((kind) => summary[kind.key] > 0).sort((a, b) => summary[b.key] - summary[a.key]);
  if (present.length === 0) return 'files changed';
  const counts = present.map((kind) => `${summary[kind.key]} ${kind.word}`).join(', ');
  const parts = present.map((kind) => named(examples[kind.key], summary[kind.key], examples.folders[kind.key]));
  const names = parts.flatMap((part) => part.names);
  return `files changed: ${counts}: ${listed(names, parts.every((part) => part.complete))}`;
}

/** The first three names, and `…` when there are more. */
function listed(names: readonly string[], complete: boolean): string {
  const shown = names.slice(0, 3);
  return `${shown.join(', ')}${names.length > shown.length || !complete ? ', …' : ''}`;
}
