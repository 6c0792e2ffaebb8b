// Answers to a program's colour queries (OSC 4, 10, 11, 12 with `?` for a colour), written
// as xterm writes them, and ended as the query was: BEL or ST (`ESC \`). Programs such as
// the agents ask for the background (OSC 11) to pick a light or a dark theme.
import { colourSpec, paletteColour, type TerminalColours } from './terminalColours.js';

/** How an OSC sequence was ended. */
export type OscEnd = '\x07' | '\x1b\\';

/** The OSC numbers answered here. */
export const COLOUR_QUERY_CODES = [4, 10, 11, 12] as const;

/**
 * The answers (each a whole OSC sequence ended by `end`) to the OSC `code` with payload
 * `data` (what follows `code;`): one per colour asked with `?`; none for colours being set.
 * OSC 10 with more than one colour goes on to 11 and 12, as in xterm.
 */
export function colourAnswers(code: number, data: string, colours: TerminalColours, end: OscEnd): string[] {
  const parts = data.split(';');
  const answers: string[] = [];
  if (code === 4) {
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const index = Number(parts[i]);
      if (parts[i + 1] === '?' && /^\d+$/.test(parts[i] ?? '') && index < 256) answers.push(`\x1b]4;${index};${colourSpec(paletteColour(colours, index))}${end}`);
    }
    return answers;
  }
  const special = [colours.foreground, colours.background, colours.cursor];
  parts.forEach((part, i) => {
    const colour = special[code - 10 + i];
    if (part === '?' && colour) answers.push(`\x1b]${code + i};${colourSpec(colour)}${end}`);
  });
  return answers;
}

const ESC = 0x1b;
const BEL = 0x07;
const OSC_START = '\x1b]';

function byteAt(data: string | Uint8Array, i: number): number {
  return typeof data === 'string' ? data.charCodeAt(i) : (data[i] ?? 0);
}

/**
 * Notes how each colour query in a program's output is ended, reading the output as it is
 * written to the emulator (in pieces cut anywhere); the emulator's OSC handler, which sees
 * the payload only, then takes the ending for each query in order (see take).
 */
export class OscEnds {
  /** Where the scan is: outside an OSC, after an ESC, in the OSC's number, in its payload, after an ESC in it. */
  private state: 'ground' | 'esc' | 'number' | 'payload' | 'payloadEsc' = 'ground';
  private code = '';
  private payload = '';
  /** The OSC read is a colour query (its number is one of COLOUR_QUERY_CODES, its payload begun). */
  private query = false;
  private readonly seen: { code: number; payload: string; end: OscEnd }[] = [];

  /** Reads a piece of the program's output. */
  scan(data: string | Uint8Array): void {
    for (let i = 0; i < data.length; i++) {
      const byte = byteAt(data, i);
      switch (this.state) {
        case 'ground': {
          // Outside an OSC (nearly all output), the next OSC's start is searched for natively.
          const start = typeof data === 'string' ? data.indexOf(OSC_START, i) : Buffer.from(data.buffer, data.byteOffset, data.byteLength).indexOf(OSC_START, i, 'latin1');
          if (start < 0) {
            if (byteAt(data, data.length - 1) === ESC) this.state = 'esc';
            return;
          }
          this.begin();
          i = start + 1;
          break;
        }
        case 'esc':
          if (byte === 0x5d) this.begin();
          else if (byte !== ESC) this.state = 'ground';
          break;
        case 'number':
        case 'payload':
          if (byte === BEL) this.ended('\x07');
          else if (byte === ESC) this.state = 'payloadEsc';
          else if (this.state === 'number' && byte >= 0x30 && byte <= 0x39) this.code += String.fromCharCode(byte);
          else if (this.state === 'number' && byte === 0x3b) {
            this.query = (COLOUR_QUERY_CODES as readonly number[]).includes(Number(this.code));
            this.state = this.query ? 'payload' : 'ground';
          }
          else if (this.state === 'number') this.state = 'ground';
          // A colour query's payload is short: a longer one is something else.
          else if (this.payload.length < 256) this.payload += String.fromCharCode(byte);
          else this.state = 'ground';
          break;
        case 'payloadEsc':
          // ESC ends the OSC whatever follows (ST is ESC \); what follows is read anew.
          this.ended('\x1b\\');
          if (byte !== 0x5c) {
            this.state = 'esc';
            i -= 1;
          }
          break;
      }
    }
  }

  /** How the query `code;payload` was ended ('\x07' if it was not seen: BEL is what most programs send). */
  take(code: number, payload: string): OscEnd {
    // Queries the emulator dropped (a cancelled sequence) are skipped.
    const at = this.seen.findIndex((query) => query.code === code && query.payload === payload);
    if (at < 0) return '\x07';
    const [query] = this.seen.splice(0, at + 1).slice(-1);
    return query?.end ?? '\x07';
  }

  private begin(): void {
    this.state = 'number';
    this.code = '';
    this.payload = '';
    this.query = false;
  }

  private ended(end: OscEnd): void {
    if (this.query) {
      this.seen.push({ code: Number(this.code), payload: this.payload, end });
      // Never more than a few waiting: the emulator takes each as it parses it.
      if (this.seen.length > 64) this.seen.shift();
    }
    this.query = false;
    this.state = 'ground';
  }
}
