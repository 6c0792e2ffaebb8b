// `rewind doctor` asks the terminal which keyboard protocol it speaks: the kitty keyboard
// protocol's query (`CSI ? u`), then the primary device attributes (DA1, `CSI c`), which
// nearly every terminal answers: DA1's answer with no `CSI ? <flags> u` before it means no
// kitty protocol. Asked in raw mode (the answers must not be echoed or wait for Enter), with a
// deadline (a terminal that answers nothing must not hang doctor), the mode put back after;
// only from the terminal's foreground (in the background, the system would stop doctor).
import type { ReadStream, WriteStream } from 'node:tty';
import { passed, warned, type Check } from './check.js';
import { inForeground } from './foreground.js';
import { queryTerminal } from '../terminalQuery.js';
import { KITTY_QUERY } from '../../pty/keyboardModes.js';
import { DA1_ANSWER, DA1_QUERY } from '../../pty/terminalAnswers.js';

const scrolling = 'Shift+PgUp scrolls the pane where the terminal passes it, else the mouse wheel';

export type TerminalAnswer = { answered: true; kittyFlags: number | undefined } | { answered: false };

/** What the terminal answered in `received` (one character per byte): done once DA1's answer is there. */
export function readAnswers(received: string): TerminalAnswer | undefined {
  const da1 = DA1_ANSWER.exec(received);
  if (!da1) return undefined;
  // eslint-disable-next-line no-control-regex -- the answers start with ESC
  const kitty = /\x1b\[\?(\d+)u/.exec(received.slice(0, da1.index));
  return { answered: true, kittyFlags: kitty ? Number(kitty[1]) : undefined };
}

/**
 * Asks the terminal on `stdin`/`stdout` for its kitty keyboard flags and DA1, waiting at most
 * `deadlineMs` for the answer; raw mode and the stream's flow are put back as they were.
 */
export async function askTerminal(stdin: ReadStream, stdout: WriteStream, deadlineMs: number): Promise<TerminalAnswer> {
  return (await queryTerminal(stdin, stdout, KITTY_QUERY + DA1_QUERY, readAnswers, deadlineMs)) ?? { answered: false };
}

/** The keys the terminal passes, as far as it says: nothing to ask when output is not a terminal (terminalCheck says so). */
export async function keysCheck(stdin: ReadStream | undefined, stdout: WriteStream | undefined, deadlineMs = 300): Promise<Check | undefined> {
  if (!stdout?.isTTY) return undefined;
  if (!stdin?.isTTY) return passed('keys', `not asked (input is not a terminal); ${scrolling}`);
  if (!inForeground()) return passed('keys', `not asked (rewind doctor runs in the background); ${scrolling}`);
  const answer = await askTerminal(stdin, stdout, deadlineMs);
  if (!answer.answered) return warned('keys', `the terminal answered no query in ${deadlineMs} ms (kitty keyboard protocol, device attributes): which keys it passes is not known`, `if keys misbehave in \`rewind -- <agent>\`, try another terminal; ${scrolling}`);
  return passed('keys', `kitty keyboard protocol: ${answer.kittyFlags === undefined ? 'no' : 'yes'}; ${scrolling}`);
}
