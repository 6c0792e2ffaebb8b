// The kitty keyboard protocol's flags and modifyOtherKeys as a program sets them (KeyboardModes),
// and the keys a terminal then sends, read back as the legacy keys they stand for (decodeKey).
import { describe, expect, it } from 'vitest';
import { KeyboardModes } from '../../src/pty/keyboardModes.js';
import { decodeKey } from '../../src/pty/keyEncodings.js';

describe('KeyboardModes', () => {
  it('pushes, changes and pops kitty flags, a stack for each screen', () => {
    const modes = new KeyboardModes();
    modes.push('normal', [1]);
    modes.push('normal', [7]);
    expect(modes.kittyFlags('normal')).toBe(7);
    expect(modes.kittyFlags('alternate')).toBe(0);
    modes.set('normal', [8, 2]);
    expect(modes.kittyFlags('normal')).toBe(15);
    modes.set('normal', [2, 3]);
    expect(modes.kittyFlags('normal')).toBe(13);
    modes.set('normal', [1]);
    expect(modes.kittyFlags('normal')).toBe(1);
    modes.pop('normal', []);
    expect(modes.kittyFlags('normal')).toBe(1);
    modes.pop('normal', [5]);
    expect(modes.kittyFlags('normal')).toBe(0);
    modes.push('alternate', [3]);
    expect(modes.kittyFlags('alternate')).toBe(3);
    modes.reset();
    expect(modes.kittyFlags('alternate')).toBe(0);
  });

  it('keeps modifyOtherKeys (`CSI > 4 ; n m`), reset by `CSI > 4 m`; other resources are not it', () => {
    const modes = new KeyboardModes();
    modes.setResource([4, 2]);
    expect(modes.modifyOtherKeys).toBe(2);
    modes.setResource([1, 1]);
    expect(modes.modifyOtherKeys).toBe(2);
    modes.setResource([4, 0]);
    expect(modes.modifyOtherKeys).toBe(0);
    modes.setResource([4]);
    expect(modes.modifyOtherKeys).toBeUndefined();
  });
});

describe('decodeKey', () => {
  it('reads kitty keys: code, modifiers (locks aside), event type, the legacy bytes', () => {
    expect(decodeKey('\x1b[13;2u')).toEqual({ code: 13, mods: 1, event: 1, legacy: '\n' });
    expect(decodeKey('\x1b[97;5u')).toEqual({ code: 97, mods: 4, event: 1, legacy: '\x01' });
    expect(decodeKey('\x1b[97:65;2u')).toEqual({ code: 97, mods: 1, event: 1, legacy: 'A' });
    expect(decodeKey('\x1b[97;129u')).toEqual({ code: 97, mods: 0, event: 1, legacy: 'a' });
    expect(decodeKey('\x1b[9;2u')?.legacy).toBe('\x1b[Z');
    expect(decodeKey('\x1b[127;3u')?.legacy).toBe('\x1b\x7f');
    expect(decodeKey('\x1b[57441;2u')?.legacy).toBe('');
    expect(decodeKey('\x1b[27;1:3u')).toEqual({ code: 27, mods: 0, event: 3, legacy: '' });
  });

  it('reads modifyOtherKeys keys and kitty event types on legacy-form keys', () => {
    expect(decodeKey('\x1b[27;2;13~')).toEqual({ code: 13, mods: 1, event: 1, legacy: '\n' });
    expect(decodeKey('\x1b[27;5;93~')?.legacy).toBe('\x1d');
    expect(decodeKey('\x1b[1;5:2C')).toEqual({ code: 0, mods: 4, event: 2, legacy: '\x1b[1;5C' });
    expect(decodeKey('\x1b[5;1:2~')?.legacy).toBe('\x1b[5~');
    expect(decodeKey('\x1b[1;1:3A')?.event).toBe(3);
  });

  it('is no key for legacy keys and other input', () => {
    for (const sequence of ['\x1b[A', '\x1b[1;5C', '\x1b[5~', '\x1b[200~', '\x1b[I', '\x1b[<0;1;1M', '\x1b[?1u']) expect(decodeKey(sequence)).toBeUndefined();
  });
});
