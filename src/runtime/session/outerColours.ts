// The outer terminal's colours, asked once as the app starts (OSC 10, 11, 12 and the 16 base
// palette entries with `?`, then DA1, which nearly every terminal answers: DA1's answer ends
// the wait, whatever came before it), so that the pane answers an agent's colour queries as
// the user's terminal would (a light background gives the agent's light theme). Asked in raw
// mode with a deadline (queryTerminal), only from the terminal's foreground, as `rewind
// doctor` asks for keys.
import type { ReadStream, WriteStream } from 'node:tty';
import { inForeground } from '../../services/doctor/foreground.js';
import { queryTerminal } from '../../services/terminalQuery.js';
import { DEFAULT_COLOURS, parseColourSpec, type Rgb, type TerminalColours } from '../../pty/terminalColours.js';

const BASE_ENTRIES = 16;

/** The queries, ended by ST (what xterm's docs write; terminals answer either). */
export const OUTER_COLOUR_QUERIES =
  '\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b]12;?\x1b\\' + Array.from({ length: BASE_ENTRIES }, (_, index) => `\x1b]4;${index};?\x1b\\`).join('') + '\x1b[c';

/**
 * The colours the terminal told in `received` (its answers, one character per byte), with
 * the defaults for what it did not tell; undefined until DA1's answer is there.
 */
export function readOuterColours(received: string): TerminalColours | undefined {
  // eslint-disable-next-line no-control-regex -- the answers start with ESC
  if (!/\x1b\[\?[\d;]*c/.test(received)) return undefined;
  const special = new Map<number, Rgb>();
  const palette = new Map<number, Rgb>();
  // eslint-disable-next-line no-control-regex -- OSC answers: ESC ] code ; [index ;] spec, ended by BEL or ST
  for (const match of received.matchAll(/\x1b\](\d+);(?:(\d+);)?([^\x07\x1b]*)(?:\x07|\x1b\\)/g)) {
    const colour = parseColourSpec(match[3] ?? '');
    if (!colour) continue;
    const code = Number(match[1]);
    if (code === 4 && match[2] !== undefined) palette.set(Number(match[2]), colour);
    else if (code >= 10 && code <= 12) special.set(code, colour);
  }
  const foreground = special.get(10) ?? DEFAULT_COLOURS.foreground;
  return { foreground, background: special.get(11) ?? DEFAULT_COLOURS.background, cursor: special.get(12) ?? foreground, palette };
}

/**
 * Asks the terminal on `stdin`/`stdout` for its colours, waiting at most `deadlineMs`; raw
 * mode and the stream's flow are put back as they were. Undefined when it cannot be asked
 * (not the foreground) or did not answer in time: the pane then reports DEFAULT_COLOURS.
 */
export function askOuterColours(stdin: ReadStream, stdout: WriteStream, deadlineMs: number, received?: (all: string) => void): Promise<TerminalColours | undefined> {
  if (!inForeground()) return Promise.resolve(undefined);
  return queryTerminal(stdin, stdout, OUTER_COLOUR_QUERIES, readOuterColours, deadlineMs, received);
}
