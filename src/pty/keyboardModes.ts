// The keyboard modes a program sets on its terminal (docs/agents.md, "Keys"): the kitty
// keyboard protocol's flags (`CSI > flags u` pushes, `CSI < n u` pops, `CSI = flags ; mode u`
// changes the flags in force, `CSI ? u` asks for them; a stack for each screen, as the
// protocol's spec asks) and xterm's modifyOtherKeys level (`CSI > 4 ; n m`; `CSI > 4 m`
// resets it). Claude Code, Codex and Gemini CLI set them to tell Shift+Enter from Enter.

/** The most entries a stack keeps (the spec lets a terminal cap it; the oldest go first). */
const STACK_LIMIT = 16;

/** The kitty flags this module knows (the spec's five: disambiguate 1 … report text 16). */
const KNOWN_FLAGS = 0b11111;

/** A CSI handler's parameters as @xterm/headless gives them (a number, or sub-parameters). */
export type CsiParams = readonly (number | readonly number[])[];

function param(params: CsiParams, index: number, otherwise: number): number {
  const value = params[index];
  const number = typeof value === 'number' ? value : value?.[0];
  return number === undefined || number < 0 ? otherwise : number;
}

/** The keyboard modes of one terminal (the pane's, as its program set them). */
export class KeyboardModes {
  private readonly stacks = { normal: [] as number[], alternate: [] as number[] };
  /** The modifyOtherKeys level the program set; undefined: never set (the terminal's default). */
  modifyOtherKeys: number | undefined;

  /** The kitty flags in force on `screen` (0: keys as legacy terminals send them). */
  kittyFlags(screen: 'normal' | 'alternate'): number {
    return this.stacks[screen].at(-1) ?? 0;
  }

  /** `CSI > flags u`: pushes `flags` on `screen`'s stack. */
  push(screen: 'normal' | 'alternate', params: CsiParams): void {
    const stack = this.stacks[screen];
    stack.push(param(params, 0, 0) & KNOWN_FLAGS);
    if (stack.length > STACK_LIMIT) stack.shift();
  }

  /** `CSI < n u`: pops `n` entries (default 1; more than there are empties the stack). */
  pop(screen: 'normal' | 'alternate', params: CsiParams): void {
    const stack = this.stacks[screen];
    stack.splice(Math.max(0, stack.length - Math.max(1, param(params, 0, 1))));
  }

  /** `CSI = flags ; mode u`: sets (mode 1, the default), adds (2) or removes (3) flags in force. */
  set(screen: 'normal' | 'alternate', params: CsiParams): void {
    const stack = this.stacks[screen];
    const flags = param(params, 0, 0) & KNOWN_FLAGS;
    const mode = param(params, 1, 1);
    const now = stack.pop() ?? 0;
    stack.push(mode === 2 ? now | flags : mode === 3 ? now & ~flags : flags);
  }

  /** `CSI > 4 ; n m` sets modifyOtherKeys to n, `CSI > 4 m` resets it; other resources (`CSI > 1 m`…) are not kept. */
  setResource(params: CsiParams): void {
    if (param(params, 0, -1) !== 4) return;
    this.modifyOtherKeys = params.length > 1 ? param(params, 1, 0) : undefined;
  }

  /** A full reset (RIS): no flags, modifyOtherKeys back to the default. */
  reset(): void {
    this.stacks.normal = [];
    this.stacks.alternate = [];
    this.modifyOtherKeys = undefined;
  }
}

/** The kitty protocol's query for the flags in force, and its answer. */
export const KITTY_QUERY = '\x1b[?u';
export function kittyFlagsAnswer(flags: number): string {
  return `\x1b[?${flags}u`;
}

/**
 * What to write to the outer terminal so that its kitty flags go from `from` to `to`, with
 * at most one entry of Rewind's own on its stack: pushed when flags are first wanted, changed
 * in place, popped when none are (so a pop never takes an entry of the user's shell).
 */
export function kittyFlagsSequence(from: number, to: number): string {
  if (from === to) return '';
  if (from === 0) return `\x1b[>${to}u`;
  if (to === 0) return '\x1b[<u';
  return `\x1b[=${to};1u`;
}

/** What to write to the outer terminal so that its modifyOtherKeys goes from `from` to `to` (undefined: reset to its default). */
export function modifyOtherKeysSequence(from: number | undefined, to: number | undefined): string {
  if (from === to) return '';
  return to === undefined ? '\x1b[>4m' : `\x1b[>4;${to}m`;
}
