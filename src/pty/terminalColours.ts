// The colours a terminal reports when a program asks (OSC 4, 10, 11, 12 with `?`): its
// default foreground and background, its cursor colour, its 256-colour palette.

/** A colour, 8 bits a channel. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** What the pane's terminal says its colours are: the outer terminal's, where it told them. */
export interface TerminalColours {
  foreground: Rgb;
  background: Rgb;
  cursor: Rgb;
  /** Palette entries told (the others are xterm's defaults, see paletteColour). */
  palette: ReadonlyMap<number, Rgb>;
}

const rgb = (r: number, g: number, b: number): Rgb => ({ r, g, b });

/** xterm's first 16 colours. */
const BASE16: readonly Rgb[] = [
  rgb(0, 0, 0), rgb(205, 0, 0), rgb(0, 205, 0), rgb(205, 205, 0), rgb(0, 0, 238), rgb(205, 0, 205), rgb(0, 205, 205), rgb(229, 229, 229),
  rgb(127, 127, 127), rgb(255, 0, 0), rgb(0, 255, 0), rgb(255, 255, 0), rgb(92, 92, 255), rgb(255, 0, 255), rgb(0, 255, 255), rgb(255, 255, 255),
];

/**
 * The colours of a terminal that told nothing: xterm's palette, light grey on black (most
 * terminals start dark; an agent told nothing at all would guess the same).
 */
export const DEFAULT_COLOURS: TerminalColours = { foreground: rgb(229, 229, 229), background: rgb(0, 0, 0), cursor: rgb(229, 229, 229), palette: new Map() };

/** Palette entry `index` (0-255): as told, else xterm's (16 base colours, a 6x6x6 cube, 24 greys). */
export function paletteColour(colours: TerminalColours, index: number): Rgb {
  const told = colours.palette.get(index);
  if (told) return told;
  if (index < 16) return BASE16[index] ?? rgb(0, 0, 0);
  if (index < 232) {
    const level = (n: number) => (n === 0 ? 0 : 55 + n * 40);
    const n = index - 16;
    return rgb(level(Math.floor(n / 36)), level(Math.floor(n / 6) % 6), level(n % 6));
  }
  const grey = 8 + (index - 232) * 10;
  return rgb(grey, grey, grey);
}

const hex4 = (channel: number) => (channel * 257).toString(16).padStart(4, '0');

/** The colour as xterm reports it: `rgb:rrrr/gggg/bbbb`, 16 bits a channel. */
export function colourSpec(colour: Rgb): string {
  return `rgb:${hex4(colour.r)}/${hex4(colour.g)}/${hex4(colour.b)}`;
}

/** A colour a terminal reported: `rgb:r/g/b` with 1 to 4 hex digits a channel, or `#rrggbb`; undefined if neither. */
export function parseColourSpec(spec: string): Rgb | undefined {
  const x11 = /^rgb:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})$/i.exec(spec.trim());
  if (x11) {
    const [r, g, b] = x11.slice(1).map((digits) => Math.round((parseInt(digits, 16) / (16 ** digits.length - 1)) * 255));
    return rgb(r ?? 0, g ?? 0, b ?? 0);
  }
  const hash = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(spec.trim());
  if (hash) return rgb(parseInt(hash[1] ?? '0', 16), parseInt(hash[2] ?? '0', 16), parseInt(hash[3] ?? '0', 16));
  return undefined;
}
