import { oneLine } from '../shared/format.js';
import { kittyFlagsSequence, modifyOtherKeysSequence } from './keyboardModes.js';

/** Which mouse events the child asked for (xterm's names: ?9, ?1000, ?1002, ?1003). */
export type MouseTracking = 'none' | 'x10' | 'vt200' | 'drag' | 'any';

/** The input-related modes a child sets on its terminal, which the outer terminal must mirror. */
export interface InputModes {
  /** DECCKM `?1`: arrows send `ESC O A` instead of `ESC [ A`. */
  applicationCursorKeys: boolean;
  /** `?2004`: pastes arrive wrapped in `ESC [200~` … `ESC [201~`. */
  bracketedPaste: boolean;
  mouseTracking: MouseTracking;
  /** `?1006`: mouse reports in SGR form (`ESC [<b;x;yM`). */
  sgrMouse: boolean;
  /** `?1004`: the terminal reports gaining and losing focus (`ESC [ I`, `ESC [ O`). */
  focusEvents: boolean;
  /** The kitty keyboard protocol's flags in force (0: legacy keys); see keyboardModes.ts. */
  kittyFlags: number;
  /** xterm's modifyOtherKeys level; undefined: never set (the terminal's own default). */
  modifyOtherKeys: number | undefined;
}

/** The modes of a fresh terminal. */
export const DEFAULT_INPUT_MODES: InputModes = {
  applicationCursorKeys: false,
  bracketedPaste: false,
  mouseTracking: 'none',
  sgrMouse: false,
  focusEvents: false,
  kittyFlags: 0,
  modifyOtherKeys: undefined,
};

const MOUSE_MODE_NUMBER: Record<Exclude<MouseTracking, 'none'>, number> = { x10: 9, vt200: 1000, drag: 1002, any: 1003 };

/** DECSET / DECRST: private mode `mode` on or off. */
export function decset(mode: number, on: boolean): string {
  return `\x1b[?${mode}${on ? 'h' : 'l'}`;
}

/** `?1h` / `?1l`: application cursor keys on or off. */
export function applicationCursorKeysSequence(on: boolean): string {
  return decset(1, on);
}

/** `?2004h` / `?2004l`: bracketed paste on or off. */
export function bracketedPasteSequence(on: boolean): string {
  return decset(2004, on);
}

/** `?1006h` / `?1006l`: SGR mouse encoding on or off. */
export function sgrMouseSequence(on: boolean): string {
  return decset(1006, on);
}

/**
 * The sequence that switches mouse tracking from `from` to `to`: the old mode off, the
 * new one on ('' when they are equal).
 */
export function mouseTrackingSequence(from: MouseTracking, to: MouseTracking): string {
  if (from === to) return '';
  return (from === 'none' ? '' : decset(MOUSE_MODE_NUMBER[from], false)) + (to === 'none' ? '' : decset(MOUSE_MODE_NUMBER[to], true));
}

/**
 * What to write to the outer terminal so that its input modes go from `from` (what it was
 * last told; undefined = a fresh terminal) to `to` (what the child now wants). Only the
 * changes are written ('' when nothing changed), so it is cheap to call after every write.
 */
export function mirrorModesSequence(from: InputModes | undefined, to: InputModes): string {
  const was = from ?? DEFAULT_INPUT_MODES;
  let out = '';
  if (was.applicationCursorKeys !== to.applicationCursorKeys) out += applicationCursorKeysSequence(to.applicationCursorKeys);
  if (was.bracketedPaste !== to.bracketedPaste) out += bracketedPasteSequence(to.bracketedPaste);
  if (was.sgrMouse !== to.sgrMouse) out += sgrMouseSequence(to.sgrMouse);
  out += mouseTrackingSequence(was.mouseTracking, to.mouseTracking);
  if (was.focusEvents !== to.focusEvents) out += decset(1004, to.focusEvents);
  out += kittyFlagsSequence(was.kittyFlags, to.kittyFlags);
  out += modifyOtherKeysSequence(was.modifyOtherKeys, to.modifyOtherKeys);
  return out;
}

/** Saves the outer terminal's window title on its title stack (XTWINOPS 22): the agent may set its own. */
export const SAVE_TITLE = '\x1b[22;0t';
/** Puts back the title SAVE_TITLE saved (XTWINOPS 23). */
const RESTORE_TITLE = '\x1b[23;0t';

/**
 * The sequence that sets the outer terminal's window title to `title` (OSC 0, what the
 * agent asked of the pane's terminal), on one line: control characters would end the
 * sequence early, or start another one.
 */
export function windowTitleSequence(title: string): string {
  return `\x1b]0;${oneLine(title)}\x07`;
}

/**
 * The sequence that leaves the outer terminal as a shell expects it, whatever the child or
 * the app switched on: every mouse mode and the SGR encoding off, focus reports off, bracketed paste off,
 * normal cursor keys, attributes reset, cursor shown, main screen back, the window title
 * from before (XTWINOPS 23; terminals without a title stack ignore it). Idempotent: write
 * it on every exit path.
 */
export function restoreTerminalSequence(): string {
  return (
    RESTORE_TITLE +
    decset(1003, false) +
    decset(1002, false) +
    decset(1000, false) +
    decset(9, false) +
    decset(1006, false) +
    decset(1004, false) +
    decset(2004, false) +
    decset(1, false) +
    '\x1b[0m' +
    decset(25, true) +
    decset(1049, false)
  );
}

/** Focus reports as the terminal sends them (`?1004`): gained, lost. */
export const FOCUS_IN = '\x1b[I';
export const FOCUS_OUT = '\x1b[O';

/**
 * Whether `input` (a binary string, as read from the terminal) is only focus reports: a
 * terminal writes each report on its own, so it comes in a read of its own.
 */
export function isFocusReport(input: string): boolean {
  // eslint-disable-next-line no-control-regex -- the reports start with ESC
  return /^(?:\x1b\[[IO])+$/.test(input);
}

/** Whether an OSC 52 payload copies text (`<selections>;<base64>`), as opposed to reading the clipboard (`?`) or anything malformed. */
export function isClipboardCopy(data: string): boolean {
  return /^[cpqs0-7]*;[A-Za-z0-9+/]*={0,2}$/.test(data);
}

/** The sequence that copies to the outer terminal's clipboard what the child copied (OSC 52, `data` as isClipboardCopy accepts). */
export function clipboardSequence(data: string): string {
  return `\x1b]52;${data}\x07`;
}
