import type { Terminal as XtermTerminal } from '@xterm/headless';
import { COLOUR_QUERY_CODES, colourAnswers, OscEnds } from './colourQueries.js';
import { DEFAULT_COLOURS, type TerminalColours } from './terminalColours.js';

/**
 * The pane's answers to the child's colour queries (OSC 4, 10, 11, 12 with `?`): xterm
 * leaves them to a renderer, which a headless terminal has not. Answered with the outer
 * terminal's colours where known, ended as each query was (BEL or ST).
 */
export class PaneColours {
  private colours: TerminalColours = DEFAULT_COLOURS;
  /** How each colour query in the output was ended: its answer is ended the same way. */
  private readonly oscEnds = new OscEnds();

  constructor(private readonly term: XtermTerminal) {
    for (const code of COLOUR_QUERY_CODES) {
      term.parser.registerOscHandler(code, (data) => {
        const answers = colourAnswers(code, data, this.colours, this.oscEnds.take(code, data));
        // As a terminal's own answers (DA, DSR…): to onResponse's listeners, in order with them.
        for (const answer of answers) this.term.input(answer, false);
        return false; // colours being set are xterm's
      });
    }
  }

  /** The colours to report from now on: the outer terminal's. */
  set(colours: TerminalColours): void {
    this.colours = colours;
  }

  /** Sees the child's output before xterm parses it (how its queries end). */
  scan(data: string | Uint8Array): void {
    this.oscEnds.scan(data);
  }
}
