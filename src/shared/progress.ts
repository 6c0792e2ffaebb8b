// Progress of a long snapshot or restore, as words, shown only once the task has run for
// about a second: the command line's updating stderr line and the app's status-line notice
// both come from here (the engine only reports counts: checkpoints/engineTypes.ts Progress).
import { waitMs } from './seams.js';

/**
 * How far a snapshot (files staged so far; how many in all is not known ahead) or a restore
 * (files read from the store, then deleted, of the files it changes) has got. Each task ends
 * with a report that has `finished` (and `failed` when it did not succeed).
 */
export interface ProgressReport {
  task: 'snapshot' | 'restore';
  done: number;
  total?: number;
  finished?: boolean;
  failed?: boolean;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `checkpointing… 12,345 files staged`, `restoring… 340 of 1,000 files`. */
export function progressText(report: ProgressReport): string {
  if (report.task === 'snapshot') return `checkpointing… ${count(report.done)} files staged`;
  return `restoring… ${count(report.done)} of ${count(report.total ?? report.done)} files`;
}

/** How long a task runs before its progress shows (ms): about a second. */
export function progressDelayMs(): number {
  return waitMs('progress-after', 1_000);
}

export interface ProgressView {
  /** Shows (or updates) the task's progress. */
  show(text: string, report: ProgressReport): void;
  /** The task ended after its progress was shown; `last` is its last report before the end. */
  end(report: ProgressReport, last: ProgressReport): void;
}

/**
 * A listener for the engine's reports that shows a task only once it has run for
 * `delayMs`, redraws at most every `everyMs`, and tells `view` when a shown task ends.
 * Tasks nest (a restore takes a snapshot first): each is timed on its own.
 */
export function delayedProgress(view: ProgressView, delayMs: number, now: () => number = Date.now, everyMs = 100): (report: ProgressReport) => void {
  const started = new Map<ProgressReport['task'], number>();
  const shown = new Map<ProgressReport['task'], ProgressReport>();
  let drawn = -Infinity;
  return (report) => {
    if (report.finished) {
      const last = shown.get(report.task);
      started.delete(report.task);
      shown.delete(report.task);
      if (last) view.end(report, last);
      return;
    }
    const time = now();
    const since = started.get(report.task) ?? time;
    started.set(report.task, since);
    if (time - since < delayMs) return;
    const first = !shown.has(report.task);
    shown.set(report.task, report);
    if (!first && time - drawn < everyMs) return;
    drawn = time;
    view.show(progressText(report), report);
  };
}
