// The one width table: the emulator (ScreenModel) and everything that measures text for the
// outer terminal (the status row, the picker, panels) count columns with it, so that what the
// agent's screen holds and what Rewind draws beside it agree. It is xterm's Unicode 11 table
// (@xterm/addon-unicode11, same release as @xterm/headless), what today's terminals and the
// agents themselves (string-width, unicode-width) use: ✅, 🙂 and CJK take two columns.
import unicode11 from '@xterm/addon-unicode11';

// The package is CommonJS, like @xterm/headless: take the class from the default export.
const { Unicode11Addon } = unicode11;

/** The Unicode version the emulator is switched to (see useCurrentWidths). */
export const UNICODE_VERSION = '11';

/** What the addon registers with a terminal: its width of one code point. */
interface WidthProvider {
  wcwidth(codePoint: number): number;
}

/** A terminal the width rules can be loaded into (the members of xterm's Terminal used here). */
export interface UnicodeTerminal {
  loadAddon(addon: InstanceType<typeof Unicode11Addon>): void;
  unicode: { activeVersion: string };
}

/** Switches an xterm terminal to the current width rules (it starts on Unicode 6, where ✅ is one column). */
export function useCurrentWidths(term: UnicodeTerminal): void {
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = UNICODE_VERSION;
}

/** The addon's own provider, taken by activating it against a stand-in that only records it. */
function loadProvider(): WidthProvider {
  let provider: WidthProvider | undefined;
  const recorder = { unicode: { register: (registered: WidthProvider) => (provider = registered) } };
  // activate() only calls terminal.unicode.register(provider): the stand-in has exactly that.
  new Unicode11Addon().activate(recorder as unknown as Parameters<InstanceType<typeof Unicode11Addon>['activate']>[0]);
  if (!provider) throw new Error('@xterm/addon-unicode11 registered no width provider');
  return provider;
}

const provider = loadProvider();

/** The columns one code point takes: 0 (controls, combining marks, joiners, variation selectors), 1 or 2. */
export function charWidth(codePoint: number): number {
  return provider.wcwidth(codePoint);
}

/**
 * How many terminal columns `text` takes, exactly as the emulator lays it out: the sum of
 * its code points' widths (a zero-width one joins the character before it).
 */
export function cellWidth(text: string): number {
  let width = 0;
  for (const char of text) width += provider.wcwidth(char.codePointAt(0) ?? 0);
  return width;
}
