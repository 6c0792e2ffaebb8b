// The command line's progress: one line on stderr, rewritten in place, for a snapshot or a
// restore that runs over about a second, and cleared when it ends. None when stderr is not
// a terminal (a script's log gets no carriage returns). Plain text: nothing to colour, so
// NO_COLOR has nothing to turn off.
import type { ProgressListener } from '../../checkpoints/index.js';
import { delayedProgress, progressDelayMs } from '../../shared/progress.js';
import type { CommandIO } from './io.js';

export function progressLine(io: CommandIO): ProgressListener | undefined {
  const stderr = io.stderr as NodeJS.WritableStream & { isTTY?: boolean };
  if (!stderr.isTTY) return undefined;
  return delayedProgress(
    {
      show: (text) => stderr.write(`\r\x1b[Krewind: ${text}`),
      end: () => stderr.write('\r\x1b[K'),
    },
    progressDelayMs(),
  );
}
