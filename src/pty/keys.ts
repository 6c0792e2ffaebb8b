import { UserError } from '../shared/errors.js';
import { decodeKey, isEnterPress, isEscPress, type EncodedKey } from './keyEncodings.js';

/**
 * One thing the user did, from raw stdin:
 * - `esc`: the Esc key alone (a read that is only Esc bytes, or an Esc that ends a read);
 * - `command`: the command key (default Ctrl+]);
 * - `enter`: `\r` typed outside a bracketed paste;
 * - `data`: everything else: `bytes` exactly as read and in order, to forward to the child,
 *   and `data`, the same as text (UTF-8 decoded) for whatever reads it as keys (the command
 *   bar, the picker, checkpoint labels). The three raw bytes of an X10 mouse report are one
 *   character each in `data`: they are not text. A whole bracketed paste (markers included)
 *   is one `data` event of its own.
 * Once the agent asked the terminal for the kitty keyboard protocol or modifyOtherKeys
 * (keyboardModes.ts), keys may come encoded (keyEncodings.ts): Esc, Enter and the command key
 * so encoded are `esc`, `enter`, `command` all the same, with `bytes`, the sequence to pass on
 * as it came; any other key is `data` whose `data` is its legacy text (for the command bar,
 * the picker, labels) and whose `bytes` are the sequence; a key's release (kitty's event
 * type 3) is `release`, with the key's code.
 */
export type KeyEvent =
  | { type: 'esc'; bytes?: Buffer }
  | { type: 'command'; bytes?: Buffer }
  | { type: 'enter'; bytes?: Buffer }
  | { type: 'release'; code: number; bytes: Buffer }
  | { type: 'data'; data: string; bytes: Buffer };

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** `CSI M` starts an X10-encoded mouse report: three raw bytes follow. */
const X10_MOUSE = '\x1b[M';

/** The default command key, Ctrl+] (0x1d). */
export const DEFAULT_COMMAND_KEY = '\x1d';

/**
 * The keys a command key cannot be, and why: the terminal sends their byte for a key the
 * agent must get. config.schema.json's `command_key` pattern refuses the same keys
 * (test/config/commandKey.test.ts holds the two together).
 */
const SAME_AS: Record<string, string> = {
  m: 'Enter',
  j: 'line feed (Enter in some terminals and programs)',
  i: 'Tab',
  '[': 'Esc',
  c: 'Ctrl-C, the interrupt the agent must get',
  d: 'Ctrl-D, end of input',
};

/**
 * The byte a `command_key` setting such as `ctrl+]`, `ctrl+g` or `ctrl+\` stands for:
 * `ctrl+` and a letter or one of `@ \ ] ^ _` (case-insensitive).
 *
 * @throws UserError for anything else, and for the keys in SAME_AS (ctrl+m, ctrl+j, ctrl+i,
 *   ctrl+[, ctrl+c, ctrl+d: the same bytes as Enter, line feed, Tab, Esc, Ctrl-C, Ctrl-D).
 */
export function parseCommandKey(spec: string): string {
  const match = /^ctrl\+(.)$/i.exec(spec.trim());
  const key = match?.[1]?.toLowerCase();
  if (key === undefined) {
    throw new UserError(`command_key "${spec}" is not a key rewind understands: use ctrl+ and a letter or one of @ \\ ] ^ _, e.g. "ctrl+]" or "ctrl+g".`);
  }
  const same = SAME_AS[key];
  if (same !== undefined) {
    throw new UserError(`command_key "${spec}" cannot be used: the terminal sends the same byte for ${same}. Choose another, e.g. "ctrl+]" or "ctrl+g".`);
  }
  if (key >= 'a' && key <= 'z') return String.fromCharCode(key.charCodeAt(0) - 0x60);
  const symbol = { '@': 0x00, '\\': 0x1c, ']': 0x1d, '^': 0x1e, _: 0x1f }[key];
  if (symbol === undefined) {
    throw new UserError(`command_key "${spec}" is not a key rewind understands: use ctrl+ and a letter or one of @ \\ ] ^ _, e.g. "ctrl+]" or "ctrl+g".`);
  }
  return String.fromCharCode(symbol);
}

/**
 * How many bytes the UTF-8 character starting with byte `code` takes: 2 to 4 for a lead
 * byte, else 1 (ASCII, and bytes that start no character: they go on as they are).
 */
function utf8Length(code: number): number {
  if (code >= 0xc2 && code <= 0xdf) return 2;
  if (code >= 0xe0 && code <= 0xef) return 3;
  if (code >= 0xf0 && code <= 0xf4) return 4;
  return 1;
}

/**
 * Where an incomplete UTF-8 character at the end of `input` (a binary string) starts: a lead
 * byte followed by fewer continuation bytes than it needs. -1 if the input ends whole.
 */
function cutCharacterAt(input: string, from: number): number {
  for (let at = input.length - 1; at >= Math.max(from, input.length - 3); at -= 1) {
    const code = input.charCodeAt(at);
    if (code >= 0x80 && code <= 0xbf) continue; // a continuation byte: the lead is further back
    return utf8Length(code) > input.length - at ? at : -1;
  }
  return -1;
}

/** The text a binary string's bytes stand for (UTF-8; what is not UTF-8 becomes U+FFFD). */
function utf8Text(binary: string): string {
  return Buffer.from(binary, 'latin1').toString('utf8');
}

/** Where the CSI starting at `start` (`ESC [`) ends: `complete` false if the input ends first. */
function scanCsi(input: string, start: number): { end: number; complete: boolean } {
  for (let j = start + 2; j < input.length; j += 1) {
    const code = input.charCodeAt(j);
    if (code >= 0x20 && code <= 0x3f) continue; // parameter and intermediate bytes
    // A final byte ends it; any other byte breaks it off (what came so far is passed on).
    return { end: code >= 0x40 && code <= 0x7e ? j + 1 : j, complete: true };
  }
  return { end: input.length, complete: false };
}

/**
 * Splits raw stdin chunks into key events (see KeyEvent), working on bytes: what is not
 * UTF-8 (an X10 mouse report past column 95) reaches the child unchanged. Relies on the
 * terminal sending each key's escape sequence in one read (docs/agents.md, "Ink and the terminal"):
 * - a read of only Esc bytes is that many Esc presses (`\x1b\x1b` = a double Esc), and an
 *   Esc that ends a longer read is an Esc press too: emitted at once, never held back;
 * - Esc + one character (`\x1bx`, `\x1b\r`, `\x1b\x7f`) is Alt+that key: data;
 * - a CSI or SS3 sequence cut off by the end of a read (`\x1b[`, `\x1b[1;`, `\x1bO`) is kept
 *   until the next read completes it, never reported as an Esc plus stray text;
 * - a bracketed paste is held until its end marker arrives, however many reads it spans;
 * - a UTF-8 character cut off by the end of a read is held until the next one completes it,
 *   so each `data` event is whole characters.
 * Call `flush()` to give up on a held sequence (e.g. when nothing followed for a while).
 */
export class KeyReader {
  private readonly commandKey: string;
  /** Bytes held for the next read, as a binary string (one character per byte, latin1). */
  private pending = '';

  /** `commandKey` is the command key's byte, e.g. from `parseCommandKey`. */
  constructor(commandKey: string = DEFAULT_COMMAND_KEY) {
    this.commandKey = commandKey;
  }

  /** Whether an incomplete sequence or paste is being held. */
  get hasPending(): boolean {
    return this.pending !== '';
  }

  /** The events in one chunk read from stdin (bytes; a string is taken as UTF-8 text), in order. */
  feed(chunk: Uint8Array | string): KeyEvent[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.pending === '' && bytes.length > 0 && bytes.every((byte) => byte === 0x1b)) {
      return Array.from(bytes, () => ({ type: 'esc' }) as const);
    }
    // A binary string: each character is one byte, so the string methods below work on bytes.
    const input = this.pending + bytes.toString('latin1');
    this.pending = '';
    const events: KeyEvent[] = [];
    let data = '';
    let text = '';
    /** Adds bytes to the data event being built; `asText` is what they read as (default UTF-8). */
    const add = (binary: string, asText = utf8Text(binary)): void => {
      data += binary;
      text += asText;
    };
    const flushData = (): void => {
      if (data !== '') events.push({ type: 'data', data: text, bytes: Buffer.from(data, 'latin1') });
      data = '';
      text = '';
    };
    let i = 0;
    while (i < input.length) {
      const c = input[i] as string;
      if (c === this.commandKey) {
        flushData();
        events.push({ type: 'command' });
        i += 1;
      } else if (c === '\r') {
        flushData();
        events.push({ type: 'enter' });
        i += 1;
      } else if (c !== ESC) {
        // A run of plain bytes up to the next key of its own, decoded as a whole.
        let end = i + 1;
        while (end < input.length && !this.endsRun(input[end] as string)) end += 1;
        const cut = end === input.length ? cutCharacterAt(input, i) : -1;
        if (cut >= 0) this.pending = input.slice(cut);
        add(input.slice(i, cut >= 0 ? cut : end));
        i = end;
      } else if (i + 1 === input.length) {
        flushData();
        events.push({ type: 'esc' });
        i += 1;
      } else {
        const next = input[i + 1] as string;
        if (next === '[') {
          const csi = scanCsi(input, i);
          if (!csi.complete) {
            this.pending = input.slice(i);
            break;
          }
          const sequence = input.slice(i, csi.end);
          if (sequence === PASTE_START) {
            const endAt = input.indexOf(PASTE_END, csi.end);
            if (endAt < 0) {
              this.pending = input.slice(i);
              break;
            }
            flushData();
            add(input.slice(i, endAt + PASTE_END.length));
            flushData();
            i = endAt + PASTE_END.length;
          } else if (sequence === X10_MOUSE) {
            if (csi.end + 3 > input.length) {
              this.pending = input.slice(i);
              break;
            }
            const report = input.slice(csi.end, csi.end + 3);
            add(sequence + report, sequence + report);
            i = csi.end + 3;
          } else {
            const key = decodeKey(sequence);
            const event = key && this.ownKey(key, Buffer.from(sequence, 'latin1'));
            if (event) {
              flushData();
              events.push(event);
            } else add(sequence, key?.legacy);
            i = csi.end;
          }
        } else if (next === 'O') {
          if (i + 2 >= input.length) {
            this.pending = input.slice(i);
            break;
          }
          add(input.slice(i, i + 3));
          i += 3;
        } else if (next === ESC) {
          const after = input[i + 2];
          if (after === '[' || after === 'O') {
            add(ESC); // Alt + a key with a sequence (`\x1b\x1b[A`): the sequence follows
          } else {
            flushData();
            events.push({ type: 'esc' });
          }
          i += 1;
        } else {
          // Alt + a character, however many bytes it takes.
          const width = utf8Length(input.charCodeAt(i + 1));
          if (i + 1 + width > input.length) {
            this.pending = input.slice(i);
            break;
          }
          add(input.slice(i, i + 1 + width));
          i += 1 + width;
        }
      }
    }
    flushData();
    return events;
  }

  /** Gives up on a held sequence, unfinished paste or cut character: its bytes as one data event, if any. */
  flush(): KeyEvent[] {
    const held = this.pending;
    this.pending = '';
    return held === '' ? [] : [{ type: 'data', data: utf8Text(held), bytes: Buffer.from(held, 'latin1') }];
  }

  /** The event of its own an encoded key makes (Esc, Enter, the command key, a release); undefined: it is data. */
  private ownKey(key: EncodedKey, bytes: Buffer): KeyEvent | undefined {
    if (key.event === 3) return { type: 'release', code: key.code, bytes };
    if (isEscPress(key)) return { type: 'esc', bytes };
    if (isEnterPress(key)) return { type: 'enter', bytes };
    if (key.event === 1 && key.legacy === this.commandKey) return { type: 'command', bytes };
    return undefined;
  }

  /** Whether `c` ends a run of plain bytes: a key of its own (Esc, Enter, the command key). */
  private endsRun(c: string): boolean {
    return c === ESC || c === '\r' || c === this.commandKey;
  }
}

/**
 * Approximates the line the user typed since the last Enter, to label checkpoints. Feed it
 * the `data` events; it knows nothing of cursor movement (arrows are ignored).
 */
export class LineTracker {
  private line = '';
  private inPaste = false;

  /** Applies typed bytes: text, Backspace, Ctrl-U/Ctrl-C (clear), Ctrl-W (word), pastes. */
  feed(data: string): void {
    let i = 0;
    while (i < data.length) {
      if (this.inPaste) {
        const endAt = data.indexOf(PASTE_END, i);
        this.appendPasted(data.slice(i, endAt < 0 ? data.length : endAt));
        if (endAt < 0) return;
        this.inPaste = false;
        i = endAt + PASTE_END.length;
        continue;
      }
      const c = data[i] as string;
      if (c === ESC) {
        i = this.skipEscape(data, i);
      } else if (c === '\x7f' || c === '\b') {
        this.line = Array.from(this.line).slice(0, -1).join('');
        i += 1;
      } else if (c === '\x15' || c === '\x03') {
        this.line = '';
        i += 1;
      } else if (c === '\x17') {
        this.deleteWord();
        i += 1;
      } else {
        if (c === '\n' || c === '\t') this.line += ' ';
        else if (c >= ' ') this.line += c;
        i += 1;
      }
    }
  }

  /** The line so far, trimmed, without resetting it. */
  peek(): string {
    return this.line.trim();
  }

  /** The line so far, trimmed; starts a new line. */
  take(): string {
    const line = this.line.trim();
    this.line = '';
    this.inPaste = false;
    return line;
  }

  private deleteWord(): void {
    this.line = this.line.replace(/\S*\s*$/, '');
  }

  private appendPasted(text: string): void {
    // eslint-disable-next-line no-control-regex -- dropping control characters is the point
    this.line += text.replace(/\r\n|[\r\n\t]/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
  }

  /** Skips the escape sequence at `start`; returns where the next input begins. */
  private skipEscape(data: string, start: number): number {
    if (data.startsWith(PASTE_START, start)) {
      this.inPaste = true;
      return start + PASTE_START.length;
    }
    const next = data[start + 1];
    if (next === '[') {
      const end = scanCsi(data, start).end;
      return data.slice(start, end) === X10_MOUSE ? Math.min(end + 3, data.length) : end;
    }
    if (next === 'O') return Math.min(start + 3, data.length);
    if (next === '\x7f') {
      this.deleteWord(); // Alt+Backspace
      return start + 2;
    }
    if (next === undefined || next === ESC) return start + 1;
    return start + 2;
  }
}
