// A test terminal's keyboard as kitty, WezTerm or xterm keep it: the kitty keyboard protocol
// (its flags, a stack of them per screen, `CSI ? u` answered), xterm's modifyOtherKeys level
// (`CSI > 4 ; n m`), and XTVERSION's answer. It records what the program asked, and encodes
// keys the way such a terminal would send them with the modes in force.
import type xtermHeadless from '@xterm/headless';

type XtermTerminal = InstanceType<typeof xtermHeadless.Terminal>;

export interface OuterKeyboardOptions {
  /** Whether it speaks the kitty keyboard protocol (answers `CSI ? u`, keeps flags). */
  kitty: boolean;
  /** Whether it honours modifyOtherKeys (`CSI > 4 ; n m`), as xterm does. */
  modifyOtherKeys: boolean;
  /** Its XTVERSION answer (`CSI > q`), e.g. `kitty(0.35.2)`; none: it does not answer. */
  version?: string;
}

/** Keys the tests type. */
export type TestKey = 'shift+enter' | 'enter' | 'esc' | 'ctrl+]' | 'ctrl+enter';

/** The kitty key code and modifiers (1 + shift 1, alt 2, ctrl 4) of each key. */
const KEYS: Record<TestKey, { code: number; mods: number; legacy: string }> = {
  'shift+enter': { code: 13, mods: 2, legacy: '\r' },
  enter: { code: 13, mods: 1, legacy: '\r' },
  esc: { code: 27, mods: 1, legacy: '\x1b' },
  'ctrl+]': { code: 93, mods: 5, legacy: '\x1d' },
  'ctrl+enter': { code: 13, mods: 5, legacy: '\r' },
};

export class OuterKeyboard {
  /** Every keyboard request the program wrote, in order (`CSI > 1 u`, `CSI > 4 ; 2 m`…). */
  readonly asked: string[] = [];
  private readonly stacks = { normal: [] as number[], alternate: [] as number[] };
  private term: XtermTerminal | undefined;
  /** The modifyOtherKeys level in force (0: off). */
  modifyOtherKeys = 0;

  constructor(readonly options: OuterKeyboardOptions) {}

  /** The kitty flags in force on the terminal's active screen (0: legacy keys). */
  get flags(): number {
    return this.stack().at(-1) ?? 0;
  }

  /** Whether a key now comes as in a terminal that was never told anything (no kitty flags, no modifyOtherKeys). */
  get legacy(): boolean {
    return this.flags === 0 && this.stacks.normal.length === 0 && this.stacks.alternate.length === 0 && this.modifyOtherKeys === 0;
  }

  /** The bytes this terminal sends for `key` now. */
  encode(key: TestKey): string {
    const { code, mods, legacy } = KEYS[key];
    const flags = this.options.kitty ? this.flags : 0;
    // Report all keys as escape codes (8); else disambiguate (1) encodes Esc and modified keys.
    if (flags & 8 || (flags & 1 && (code === 27 || mods > 1))) return `\x1b[${code}${mods > 1 ? `;${mods}` : ''}u`;
    if (this.options.modifyOtherKeys && this.modifyOtherKeys >= 2 && mods > 1) return `\x1b[27;${mods};${code}~`;
    return legacy;
  }

  /** Makes `term` (the test terminal the program writes to) keep and answer these modes. */
  install(term: XtermTerminal): void {
    this.term = term;
    const { parser } = term;
    if (this.options.kitty) {
      parser.registerCsiHandler({ prefix: '?', final: 'u' }, () => this.answer(`\x1b[?${this.flags}u`, 'CSI ? u'));
      parser.registerCsiHandler({ prefix: '>', final: 'u' }, (params) => this.change(`CSI > ${String(params)} u`, () => this.stack().push(first(params))));
      parser.registerCsiHandler({ prefix: '<', final: 'u' }, (params) =>
        this.change(`CSI < ${String(params)} u`, () => this.stack().splice(-Math.max(1, first(params, 1)))),
      );
      parser.registerCsiHandler({ prefix: '=', final: 'u' }, (params) =>
        this.change(`CSI = ${String(params)} u`, () => {
          const stack = this.stack();
          const flags = first(params);
          const mode = typeof params[1] === 'number' ? params[1] : 1;
          const now = stack.pop() ?? 0;
          stack.push(mode === 1 ? flags : mode === 2 ? now | flags : now & ~flags);
        }),
      );
    }
    if (this.options.modifyOtherKeys) {
      parser.registerCsiHandler({ prefix: '>', final: 'm' }, (params) =>
        this.change(`CSI > ${String(params)} m`, () => {
          if (first(params) === 4) this.modifyOtherKeys = typeof params[1] === 'number' ? params[1] : 0;
        }),
      );
    }
    const version = this.options.version;
    if (version !== undefined) parser.registerCsiHandler({ prefix: '>', final: 'q' }, () => this.answer(`\x1bP>|${version}\x1b\\`, 'CSI > q'));
  }

  private stack(): number[] {
    return this.term?.buffer.active.type === 'alternate' ? this.stacks.alternate : this.stacks.normal;
  }

  private answer(reply: string, asked: string): boolean {
    this.asked.push(asked);
    this.term?.input(reply, false);
    return true;
  }

  private change(asked: string, apply: () => void): boolean {
    this.asked.push(asked);
    apply();
    return true;
  }
}

/** The first parameter, or `otherwise` when it is missing or 0-defaulted. */
function first(params: (number | number[])[], otherwise = 0): number {
  const value = params[0];
  return typeof value === 'number' && value > 0 ? value : otherwise;
}
