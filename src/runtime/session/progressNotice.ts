// The app's progress: a snapshot or restore that runs over about a second shows its counts
// as a status-line notice, updated as it goes (`checkpointing… 12,345 files staged`); a
// snapshot that was shown says when it is done (a restore's own notice follows it).
import type { ProgressListener } from '../../checkpoints/index.js';
import { delayedProgress, progressDelayMs } from '../../shared/progress.js';

export function progressNotices(say: (text: string) => void): ProgressListener {
  return delayedProgress(
    {
      show: (text) => say(text),
      end: (report, last) => {
        // A failed one says nothing here: its error is the next notice.
        if (last.task === 'snapshot' && !report.failed) say(`checkpoint taken: ${last.done.toLocaleString('en-US')} files staged`);
      },
    },
    progressDelayMs(),
  );
}
