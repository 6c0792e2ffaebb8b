// The outer terminal's colours, asked once as the app starts (OSC 10, 11, 12 and the 16 base
// palette entries with `?`), with its kitty keyboard flags (`CSI ? u`) and its name (XTVERSION),
// then DA1, which nearly every terminal answers: DA1's answer ends the wait, whatever came
// before it. So the pane answers an agent's colour queries as the user's terminal would (a light
// background gives the agent's light theme), and its keyboard queries too (the kitty protocol
// is mirrored to a terminal that speaks it: keyboardModes.ts). Asked on the app's own input
// once it reads it in raw mode, with a deadline, only from the terminal's foreground.
import { inForeground } from '../../services/doctor/foreground.js';
import { DA1_ANSWER, DA1_QUERY, terminalAnswers, withoutTerminalAnswers } from '../../pty/terminalAnswers.js';
import { DEFAULT_COLOURS, parseColourSpec, type Rgb, type TerminalColours } from '../../pty/terminalColours.js';
import { KITTY_QUERY } from '../../pty/keyboardModes.js';
import type { OuterKeyboard } from '../../pty/screen.js';

const BASE_ENTRIES = 16;

/** XTVERSION: the terminal's name and version, answered `DCS > | name ST`. */
const VERSION_QUERY = '\x1b[>0q';

/** The queries (the colours' ended by ST, what xterm's docs write; terminals answer either), DA1 last. */
export const OUTER_COLOUR_QUERIES =
  '\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b]12;?\x1b\\' + Array.from({ length: BASE_ENTRIES }, (_, index) => `\x1b]4;${index};?\x1b\\`).join('') + KITTY_QUERY + VERSION_QUERY + DA1_QUERY;

/** What the terminal told of its keyboard in `received`: the kitty protocol if it answered `CSI ? u` (before DA1), its XTVERSION name. */
export function readOuterKeyboard(received: string): OuterKeyboard {
  const da1 = DA1_ANSWER.exec(received)?.index ?? received.length;
  // eslint-disable-next-line no-control-regex -- the answers start with ESC
  const kitty = /\x1b\[\?\d+u/.exec(received);
  // eslint-disable-next-line no-control-regex -- DCS > | text ST
  const version = /\x1bP>\|([^\x07\x1b]*)\x1b\\/.exec(received)?.[1];
  return { kitty: kitty !== null && kitty.index < da1, ...(version === undefined ? {} : { version }) };
}

/**
 * The colours the terminal told in `received` (its answers, one character per byte), with
 * the defaults for what it did not tell; undefined until DA1's answer is there.
 */
export function readOuterColours(received: string): TerminalColours | undefined {
  if (!DA1_ANSWER.test(received)) return undefined;
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
 * The outer terminal's colours and keyboard, asked on the app's own input: no reader of its own, so no key
 * typed meanwhile is ever taken. `ask` writes the queries (not from a background job, where a
 * write to the terminal would stop the app); `take` gives each chunk of the terminal's input
 * back without its answers, gathering them; `colours` settles once DA1's answer came, or after
 * the deadline (undefined: the pane reports DEFAULT_COLOURS).
 */
export class OuterColours {
  readonly colours: Promise<TerminalColours | undefined>;
  /** What it told of its keyboard, settled with the colours (none told: no kitty protocol, no name). */
  readonly keyboard: Promise<OuterKeyboard>;
  private settle: ((colours: TerminalColours | undefined) => void) | undefined;
  private settleKeyboard: ((keyboard: OuterKeyboard) => void) | undefined;
  private answers = '';
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    this.colours = new Promise((resolve) => (this.settle = resolve));
    this.keyboard = new Promise((resolve) => (this.settleKeyboard = resolve));
  }

  ask(write: (data: string) => void, deadlineMs: number): void {
    if (!inForeground()) return this.done(undefined);
    this.timer = setTimeout(() => this.done(undefined), deadlineMs);
    this.timer.unref();
    write(OUTER_COLOUR_QUERIES);
  }

  take(chunk: Buffer): Buffer {
    if (this.settle) {
      for (const answer of chunk.toString('latin1').matchAll(terminalAnswers)) this.answers += answer[0];
      const colours = readOuterColours(this.answers);
      if (colours) this.done(colours);
    }
    return withoutTerminalAnswers(chunk);
  }

  private done(colours: TerminalColours | undefined): void {
    clearTimeout(this.timer);
    this.settleKeyboard?.(colours ? readOuterKeyboard(this.answers) : { kitty: false });
    this.settle?.(colours);
    this.settle = undefined;
    this.settleKeyboard = undefined;
  }
}
