// Keys as a terminal sends them once a program asked for more than legacy keys (see
// keyboardModes.ts): the kitty keyboard protocol's `CSI code[:alternates] ; mods[:event] u`
// (and its event types on legacy-form keys: `CSI 1 ; 1:3 A`, an arrow released) and xterm's
// modifyOtherKeys `CSI 27 ; mods ; code ~`. Rewind reads a few keys itself (Esc, Enter, the
// command key; the picker and the command bar read more): a key in these forms is told as
// the legacy bytes it stands for, and passed on to the agent as it came.

/** One key decoded from its sequence. */
export interface EncodedKey {
  /** The key's Unicode code point (kitty's key code: 27 Esc, 13 Enter, 97 `a`…); 0 for a legacy-form key. */
  code: number;
  /** Shift 1, Alt 2, Ctrl 4, Super 8, Hyper 16, Meta 32 (Caps Lock and Num Lock left out). */
  mods: number;
  /** 1 press, 2 repeat, 3 release. */
  event: 1 | 2 | 3;
  /** What a legacy terminal sends for the same key ('' for a key it sends nothing for). */
  legacy: string;
}

const SHIFT = 1;
const ALT = 2;
const CTRL = 4;
/** Caps Lock and Num Lock: they change no key a program reads here. */
const LOCKS = 64 | 128;
/** Kitty's functional keys with no legacy byte (keypad, media, modifiers alone) live in the Private Use Area. */
const PRIVATE_USE = [57344, 63743] as const;

/** The legacy bytes of `code` with `mods`: control bytes for Ctrl, an Esc before for Alt. */
function legacyOf(code: number, mods: number): string {
  if (code >= PRIVATE_USE[0] && code <= PRIVATE_USE[1]) return '';
  let key: string;
  if (code === 13) key = mods & (SHIFT | CTRL) ? '\n' : '\r';
  else if (code === 9 && mods & SHIFT) return '\x1b[Z';
  else if (code === 9 || code === 27 || code === 127 || code === 8) key = String.fromCharCode(code);
  else if (code < 32) return '';
  else {
    key = String.fromCodePoint(code);
    if (mods & SHIFT) key = key.toUpperCase();
    if (mods & CTRL) {
      const upper = key.toUpperCase().charCodeAt(0);
      if (key === ' ') key = '\x00';
      else if (upper >= 0x40 && upper <= 0x5f) key = String.fromCharCode(upper & 0x1f);
      else if (key === '?') key = '\x7f';
    }
  }
  return mods & ALT ? `\x1b${key}` : key;
}

/** A legacy-form key without its event type: `CSI 1 ; 1:2 A` (an arrow repeated) is `CSI A`. */
function legacyForm(number: string, mods: number, final: string): string {
  if (mods !== 0) return `\x1b[${number};${mods + 1}${final}`;
  return final === '~' ? `\x1b[${number}~` : `\x1b[${number === '1' ? '' : number}${final}`;
}

/** The numbers of one parameter and its sub-parameters (`97:65` → [97, 65]); an empty one is undefined. */
function subParams(part: string | undefined): (number | undefined)[] {
  return (part ?? '').split(':').map((value) => (value === '' ? undefined : Number(value)));
}

/**
 * The key `sequence` (one whole CSI sequence, as read) stands for, if it is one of the forms
 * above; undefined for anything else (legacy keys, mouse and focus reports, pastes).
 */
export function decodeKey(sequence: string): EncodedKey | undefined {
  // eslint-disable-next-line no-control-regex -- the sequence starts with ESC
  const match = /^\x1b\[([\d:;]*)([u~A-DEFHPQS])$/.exec(sequence);
  if (!match) return undefined;
  const [, body = '', final] = match;
  const parts = body.split(';');
  const [modsPlusOne, eventNumber] = subParams(parts[1]);
  const mods = ((modsPlusOne ?? 1) - 1) & ~LOCKS;
  const event = eventNumber === 2 || eventNumber === 3 ? eventNumber : 1;
  if (final === 'u') {
    const [code] = subParams(parts[0]);
    if (code === undefined || !Number.isInteger(code)) return undefined;
    return { code, mods, event, legacy: event === 3 ? '' : legacyOf(code, mods) };
  }
  if (final === '~' && parts[0] === '27' && parts.length === 3) {
    const code = Number(parts[2]);
    if (!Number.isInteger(code)) return undefined;
    return { code, mods, event: 1, legacy: legacyOf(code, mods) };
  }
  // A legacy-form key (arrows, PgUp, F1…) carries an event type only under the kitty protocol.
  if (eventNumber === undefined) return undefined;
  return { code: 0, mods, event, legacy: event === 3 ? '' : legacyForm(parts[0] ?? '', mods, final ?? '~') };
}

/** Whether `key` is Esc pressed alone. */
export function isEscPress(key: EncodedKey): boolean {
  return key.code === 27 && key.mods === 0 && key.event === 1;
}

/** Whether `key` is Enter pressed alone (Shift+Enter, Ctrl+Enter are newlines, not this). */
export function isEnterPress(key: EncodedKey): boolean {
  return key.code === 13 && key.mods === 0 && key.event === 1;
}
