// What a checkpoint's step changed, told short: how many files of each kind, and a few of
// them (the list describes a step by them).
import type { RawChange } from '../git/diffRaw.js';

/** How many files of each kind a checkpoint's step changed (from the tree diff). */
export interface ChangeSummary {
  added: number;
  modified: number;
  deleted: number;
}

/** A few changed paths of each kind, and the one top folder all of a kind lie in, if they do. */
export interface ChangeExamples {
  added: string[];
  modified: string[];
  deleted: string[];
  /** Per kind: `tests/` when every path of that kind is inside `tests/`. */
  folders: { added?: string; modified?: string; deleted?: string };
}

export function summarize(changes: readonly RawChange[]): ChangeSummary {
  const summary: ChangeSummary = { added: 0, modified: 0, deleted: 0 };
  for (const change of changes) {
    if (change.status === 'A') summary.added++;
    else if (change.status === 'D') summary.deleted++;
    else summary.modified++;
  }
  return summary;
}

export function examplesOf(changes: readonly RawChange[]): ChangeExamples {
  const examples: ChangeExamples = { added: [], modified: [], deleted: [], folders: {} };
  const tops: Record<'added' | 'modified' | 'deleted', string | null | undefined> = { added: undefined, modified: undefined, deleted: undefined };
  for (const change of changes) {
    const key = change.status === 'A' ? 'added' : change.status === 'D' ? 'deleted' : 'modified';
    if (examples[key].length < 5) examples[key].push(change.path);
    const slash = change.path.indexOf('/');
    const top = slash < 0 ? null : change.path.slice(0, slash + 1);
    tops[key] = tops[key] === undefined ? top : tops[key] === top ? top : null;
  }
  for (const key of ['added', 'modified', 'deleted'] as const) {
    const top = tops[key];
    if (top) examples.folders[key] = top;
  }
  return examples;
}
