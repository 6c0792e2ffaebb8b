// The pane's keyboard as the agent sees it: the modes it sets (keyboardModes.ts) kept from its
// output, and its questions about the keyboard and the terminal answered as the outer terminal
// would answer them. @xterm/headless knows none of these: it leaves `CSI > u`, `CSI < u`,
// `CSI = u`, `CSI ? u`, `CSI > 4 ; n m` and XTVERSION (`CSI > q`) alone.
import { KeyboardModes, kittyFlagsAnswer, type CsiParams } from './keyboardModes.js';

/** What the outer terminal told of its keyboard as the app started: whether it speaks the kitty protocol, and its XTVERSION name. */
export interface OuterKeyboard {
  kitty: boolean;
  version?: string;
}

/** The members of the emulator this needs (ScreenModel's @xterm/headless terminal). */
export interface KeyboardTerminal {
  readonly parser: {
    registerCsiHandler(id: { prefix?: string; final: string }, handler: (params: CsiParams) => boolean): unknown;
  };
  readonly buffer: { readonly active: { readonly type: 'normal' | 'alternate' } };
  /** Answers as the terminal's own (to its onData listeners, in order with DA and DSR answers). */
  input(data: string, wasUserInput: boolean): void;
}

/** The pane's keyboard modes and answers, on `term`'s parser. */
export class PaneKeyboard {
  readonly modes = new KeyboardModes();
  /** Until the outer terminal told, the pane answers as a terminal without the protocol and without a name. */
  private outer: OuterKeyboard = { kitty: false };

  constructor(private readonly term: KeyboardTerminal) {
    const { parser } = term;
    const screen = () => term.buffer.active.type;
    parser.registerCsiHandler({ prefix: '>', final: 'u' }, (params) => (this.modes.push(screen(), params), true));
    parser.registerCsiHandler({ prefix: '<', final: 'u' }, (params) => (this.modes.pop(screen(), params), true));
    parser.registerCsiHandler({ prefix: '=', final: 'u' }, (params) => (this.modes.set(screen(), params), true));
    // The flags in force, only where the outer terminal speaks the protocol (the agent's keys come from there).
    parser.registerCsiHandler({ prefix: '?', final: 'u' }, () => {
      if (this.outer.kitty) term.input(kittyFlagsAnswer(this.modes.kittyFlags(screen())), false);
      return true;
    });
    parser.registerCsiHandler({ prefix: '>', final: 'm' }, (params) => (this.modes.setResource(params), true));
    parser.registerCsiHandler({ prefix: '>', final: 'q' }, (params) => {
      const version = this.outer.version;
      if ((params[0] ?? 0) === 0 && version !== undefined) term.input(`\x1bP>|${version}\x1b\\`, false);
      return true;
    });
  }

  /** What the outer terminal told: the agent's `CSI ? u` and XTVERSION are answered so from now on. */
  setOuter(outer: OuterKeyboard): void {
    this.outer = outer;
  }

  /** The kitty flags in force on the active screen, and modifyOtherKeys. */
  current(): { kittyFlags: number; modifyOtherKeys: number | undefined } {
    return { kittyFlags: this.modes.kittyFlags(this.term.buffer.active.type), modifyOtherKeys: this.modes.modifyOtherKeys };
  }
}
