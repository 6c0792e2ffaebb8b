import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INPUT_MODES,
  applicationCursorKeysSequence,
  bracketedPasteSequence,
  mirrorModesSequence,
  mouseTrackingSequence,
  restoreTerminalSequence,
  isFocusReport,
  isClipboardCopy,
  windowTitleSequence,
} from '../../src/pty/terminalModes.js';

describe('terminal modes', () => {
  it('writes the DECSET / DECRST sequences', () => {
    expect(applicationCursorKeysSequence(true)).toBe('\x1b[?1h');
    expect(applicationCursorKeysSequence(false)).toBe('\x1b[?1l');
    expect(bracketedPasteSequence(true)).toBe('\x1b[?2004h');
    expect(mouseTrackingSequence('none', 'drag')).toBe('\x1b[?1002h');
    expect(mouseTrackingSequence('drag', 'any')).toBe('\x1b[?1002l\x1b[?1003h');
    expect(mouseTrackingSequence('x10', 'none')).toBe('\x1b[?9l');
    expect(mouseTrackingSequence('vt200', 'vt200')).toBe('');
  });

  it('mirrors only what changed', () => {
    const on = { ...DEFAULT_INPUT_MODES, applicationCursorKeys: true, bracketedPaste: true, mouseTracking: 'vt200', sgrMouse: true, focusEvents: true } as const;
    expect(mirrorModesSequence(undefined, DEFAULT_INPUT_MODES)).toBe('');
    expect(mirrorModesSequence(undefined, on)).toBe('\x1b[?1h\x1b[?2004h\x1b[?1006h\x1b[?1000h\x1b[?1004h');
    expect(mirrorModesSequence(on, on)).toBe('');
    expect(mirrorModesSequence(on, { ...on, bracketedPaste: false })).toBe('\x1b[?2004l');
    expect(mirrorModesSequence(on, DEFAULT_INPUT_MODES)).toBe('\x1b[?1l\x1b[?2004l\x1b[?1006l\x1b[?1000l\x1b[?1004l');
  });

  it("mirrors the kitty keyboard flags with one entry of its own on the terminal's stack, and modifyOtherKeys", () => {
    const kitty = (kittyFlags: number) => ({ ...DEFAULT_INPUT_MODES, kittyFlags });
    expect(mirrorModesSequence(undefined, kitty(1))).toBe('\x1b[>1u');
    expect(mirrorModesSequence(kitty(1), kitty(7))).toBe('\x1b[=7;1u');
    expect(mirrorModesSequence(kitty(7), kitty(0))).toBe('\x1b[<u');
    expect(mirrorModesSequence(kitty(7), kitty(7))).toBe('');
    const others = (modifyOtherKeys: number | undefined) => ({ ...DEFAULT_INPUT_MODES, modifyOtherKeys });
    expect(mirrorModesSequence(undefined, others(2))).toBe('\x1b[>4;2m');
    expect(mirrorModesSequence(others(2), others(0))).toBe('\x1b[>4;0m');
    expect(mirrorModesSequence(others(0), others(undefined))).toBe('\x1b[>4m');
  });

  it('restores everything a child or the app may have switched on', () => {
    const restore = restoreTerminalSequence();
    for (const part of ['\x1b[?25h', '\x1b[?1049l', '\x1b[?2004l', '\x1b[?1l', '\x1b[?1000l', '\x1b[?1002l', '\x1b[?1003l', '\x1b[?9l', '\x1b[?1006l', '\x1b[?1004l', '\x1b[0m']) {
      expect(restore).toContain(part);
    }
  });
});

describe('isFocusReport', () => {
  it('is a read of focus reports only (a terminal writes each on its own), not keys that hold one', () => {
    expect(isFocusReport('\x1b[I')).toBe(true);
    expect(isFocusReport('\x1b[O\x1b[I')).toBe(true);
    expect(isFocusReport('a\x1b[I')).toBe(false);
    expect(isFocusReport('\x1b[A')).toBe(false);
    expect(isFocusReport('')).toBe(false);
  });
});

describe('isClipboardCopy', () => {
  it('is an OSC 52 copy: selections, then base64 text; not a read (?) nor anything else', () => {
    expect(isClipboardCopy('c;aGVsbG8=')).toBe(true);
    expect(isClipboardCopy(';aGVsbG8')).toBe(true);
    expect(isClipboardCopy('c;?')).toBe(false);
    expect(isClipboardCopy('c;a b')).toBe(false);
    expect(isClipboardCopy('x;aGVsbG8=')).toBe(false);
  });
});

describe('windowTitleSequence', () => {
  it('sets the title with OSC 0, without the control characters that would end or start a sequence', () => {
    expect(windowTitleSequence('claude: fix the parser')).toBe('\x1b]0;claude: fix the parser\x07');
    expect(windowTitleSequence('a\x07b\x1b]0;evil\x9cc\u00e9')).toBe('\x1b]0;ab]0;evilc\u00e9\x07');
  });

  it('is undone on exit: the terminal restore pops the title saved at start', () => {
    expect(restoreTerminalSequence()).toContain('\x1b[23;0t');
  });
});
