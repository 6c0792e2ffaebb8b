import { describe, expect, it } from 'vitest';
import { KeyReader, LineTracker, parseCommandKey, type KeyEvent } from '../../src/pty/keys.js';

const data = (d: string): KeyEvent => ({ type: 'data', data: d, bytes: Buffer.from(d) });
const esc: KeyEvent = { type: 'esc' };
const enter: KeyEvent = { type: 'enter' };
const command: KeyEvent = { type: 'command' };

function feedAll(reader: KeyReader, chunks: string[]): KeyEvent[] {
  return chunks.flatMap((chunk) => reader.feed(chunk));
}

describe('KeyReader: keys in the kitty keyboard protocol and modifyOtherKeys', () => {
  const bytes = (sequence: string) => Buffer.from(sequence, 'latin1');

  it('reads Esc, Enter and the command key so encoded as those keys, with the bytes to pass on', () => {
    const reader = new KeyReader();
    expect(reader.feed('\x1b[27u')).toEqual([{ type: 'esc', bytes: bytes('\x1b[27u') }]);
    expect(reader.feed('\x1b[27;1:1u')).toEqual([{ type: 'esc', bytes: bytes('\x1b[27;1:1u') }]);
    expect(reader.feed('\x1b[13u')).toEqual([{ type: 'enter', bytes: bytes('\x1b[13u') }]);
    expect(reader.feed('\x1b[93;5u')).toEqual([{ type: 'command', bytes: bytes('\x1b[93;5u') }]);
    expect(reader.feed('\x1b[27;5;93~')).toEqual([{ type: 'command', bytes: bytes('\x1b[27;5;93~') }]);
    expect(new KeyReader('\x07').feed('\x1b[103;5u')).toEqual([{ type: 'command', bytes: bytes('\x1b[103;5u') }]);
  });

  it('reads a release as a release of its key, Esc Lock and Num Lock aside', () => {
    expect(new KeyReader().feed('\x1b[27;1:3u')).toEqual([{ type: 'release', code: 27, bytes: bytes('\x1b[27;1:3u') }]);
    expect(new KeyReader().feed('\x1b[1;1:3A')).toEqual([{ type: 'release', code: 0, bytes: bytes('\x1b[1;1:3A') }]);
    expect(new KeyReader().feed('\x1b[27;65u')).toEqual([{ type: 'esc', bytes: bytes('\x1b[27;65u') }]);
  });

  it('reads other keys as data: the sequence to pass on, the legacy text for whatever reads keys', () => {
    const reader = new KeyReader();
    expect(reader.feed('\x1b[13;2u')).toEqual([{ type: 'data', data: '\n', bytes: bytes('\x1b[13;2u') }]);
    expect(reader.feed('\x1b[27;2;13~')).toEqual([{ type: 'data', data: '\n', bytes: bytes('\x1b[27;2;13~') }]);
    expect(reader.feed('a\x1b[98u\x1b[99;5u\x1b[120;3u')).toEqual([{ type: 'data', data: 'ab\x03\x1bx', bytes: bytes('a\x1b[98u\x1b[99;5u\x1b[120;3u') }]);
    expect(reader.feed('\x1b[27;3u')).toEqual([{ type: 'data', data: '\x1b\x1b', bytes: bytes('\x1b[27;3u') }]);
    expect(reader.feed('\x1b[1;1:2A')).toEqual([{ type: 'data', data: '\x1b[A', bytes: bytes('\x1b[1;1:2A') }]);
  });
});

describe('KeyReader', () => {
  it('reads a lone Esc chunk as Esc, at once', () => {
    const reader = new KeyReader();
    expect(reader.feed('\x1b')).toEqual([esc]);
    expect(reader.hasPending).toBe(false);
  });

  it('reads a double Esc chunk as two Escs', () => {
    expect(new KeyReader().feed('\x1b\x1b')).toEqual([esc, esc]);
  });

  it('passes escape sequences through as data, not as Esc', () => {
    const reader = new KeyReader();
    expect(reader.feed('\x1b[A')).toEqual([data('\x1b[A')]);
    expect(reader.feed('\x1bOA')).toEqual([data('\x1bOA')]);
    expect(reader.feed('\x1b[15~')).toEqual([data('\x1b[15~')]);
    expect(reader.feed('\x1b[1;5C')).toEqual([data('\x1b[1;5C')]);
    expect(reader.feed('\x1b[<0;10;5M')).toEqual([data('\x1b[<0;10;5M')]);
  });

  it('reads Alt+key (Esc and the key in one chunk) as data', () => {
    const reader = new KeyReader();
    expect(reader.feed('\x1bx')).toEqual([data('\x1bx')]);
    expect(reader.feed('\x1b\r')).toEqual([data('\x1b\r')]); // Alt+Enter: a newline in agents, not Enter
    expect(reader.feed('\x1b\x1b[A')).toEqual([data('\x1b\x1b[A')]); // Alt+Up
  });

  it('holds a CSI split across reads until it completes', () => {
    const reader = new KeyReader();
    expect(reader.feed('\x1b[')).toEqual([]);
    expect(reader.hasPending).toBe(true);
    expect(reader.feed('A')).toEqual([data('\x1b[A')]);
    expect(feedAll(reader, ['ab\x1b[1', ';5', 'Dcd'])).toEqual([data('ab'), data('\x1b[1;5Dcd')]);
    expect(feedAll(reader, ['\x1bO', 'P'])).toEqual([data('\x1bOP')]);
  });

  it('reads an Esc that ends a longer chunk as Esc', () => {
    expect(new KeyReader().feed('ab\x1b')).toEqual([data('ab'), esc]);
  });

  it('gives up a held sequence as data on flush', () => {
    const reader = new KeyReader();
    expect(reader.feed('\x1b[1;')).toEqual([]);
    expect(reader.flush()).toEqual([data('\x1b[1;')]);
    expect(reader.hasPending).toBe(false);
    expect(reader.flush()).toEqual([]);
  });

  it('splits the command key out of a chunk, in order', () => {
    expect(new KeyReader().feed('ab\x1dcd')).toEqual([data('ab'), command, data('cd')]);
  });

  it('uses a configured command key', () => {
    const reader = new KeyReader(parseCommandKey('ctrl+g'));
    expect(reader.feed('a\x07\x1d')).toEqual([data('a'), command, data('\x1d')]);
  });

  it('reads \\r as Enter outside a paste, and as data inside one', () => {
    const reader = new KeyReader();
    expect(reader.feed('hi\r')).toEqual([data('hi'), enter]);
    const paste = '\x1b[200~line 1\rline 2\r\x1b[201~';
    expect(reader.feed(paste)).toEqual([data(paste)]);
  });

  it('keeps a paste split across three chunks as one data event', () => {
    const reader = new KeyReader();
    const events = feedAll(reader, ['x\x1b[200~one\r', 'two\x1d\x1b\x1b', 'three\x1b[20', '1~\r']);
    expect(events).toEqual([data('x'), data('\x1b[200~one\rtwo\x1d\x1b\x1bthree\x1b[201~'), enter]);
  });

  it('holds a paste whose start marker is split', () => {
    const reader = new KeyReader();
    expect(feedAll(reader, ['\x1b[20', '0~abc', '\x1b[201~'])).toEqual([data('\x1b[200~abc\x1b[201~')]);
  });

  it('passes Ctrl-C, Ctrl-Z, Ctrl-D and Backspace through as data', () => {
    expect(new KeyReader().feed('\x03')).toEqual([data('\x03')]);
    expect(new KeyReader().feed('\x1a')).toEqual([data('\x1a')]);
    expect(new KeyReader().feed('\x04\x7f')).toEqual([data('\x04\x7f')]);
  });

  it('keeps an X10 mouse report whole', () => {
    const reader = new KeyReader();
    expect(feedAll(reader, ['\x1b[M', ' !\r'])).toEqual([data('\x1b[M !\r')]);
  });

  it('passes a broken-off CSI on and carries on with what broke it', () => {
    expect(new KeyReader().feed('\x1b[1\r')).toEqual([data('\x1b[1'), enter]);
  });

  it('keeps every byte, in order, for unicode text', () => {
    expect(new KeyReader().feed('héllo 世界 😀')).toEqual([data('héllo 世界 😀')]);
    expect(new KeyReader().feed('\x1b😀')).toEqual([data('\x1b😀')]);
  });
});

describe('KeyReader on bytes', () => {
  const bytesOf = (events: KeyEvent[]) => Buffer.concat(events.map((event) => (event.type === 'data' ? event.bytes : Buffer.alloc(0))));
  const textOf = (events: KeyEvent[]) => events.map((event) => (event.type === 'data' ? event.data : `<${event.type}>`));

  it('passes an X10 mouse report at column 200 on unchanged (bytes past 0x7f that are not UTF-8)', () => {
    // ESC [ M, then button, column and row, each 32 + value: column 200 is 0xe8.
    const report = Buffer.from([0x1b, 0x5b, 0x4d, 32 + 0, 32 + 200, 32 + 5]);
    const events = new KeyReader().feed(report);
    expect(events).toHaveLength(1);
    expect(bytesOf(events)).toEqual(report);
    // Cut off after its first raw byte: held until the rest comes, then whole.
    const reader = new KeyReader();
    expect(reader.feed(report.subarray(0, 5))).toEqual([]);
    expect(bytesOf(reader.feed(Buffer.concat([report.subarray(5), Buffer.from('x')])))).toEqual(Buffer.concat([report, Buffer.from('x')]));
  });

  it('keeps a UTF-8 character split across two reads whole: the same bytes, and whole text', () => {
    const typed = Buffer.from('abécd', 'utf8');
    const reader = new KeyReader();
    const first = reader.feed(typed.subarray(0, 3)); // 'ab' and the first byte of é
    expect(reader.hasPending).toBe(true);
    const second = reader.feed(typed.subarray(3));
    expect(bytesOf([...first, ...second])).toEqual(typed);
    expect(textOf([...first, ...second])).toEqual(['ab', 'écd']);
  });

  it('keeps a 4-byte character cut in three pieces, and Alt + a cut character, whole', () => {
    const emoji = Buffer.from('😀', 'utf8');
    const reader = new KeyReader();
    const events = [emoji.subarray(0, 1), emoji.subarray(1, 3), emoji.subarray(3)].flatMap((piece) => reader.feed(piece));
    expect(events).toEqual([data('😀')]);
    const alt = Buffer.from('\x1bé', 'utf8');
    expect([alt.subarray(0, 2), alt.subarray(2)].flatMap((piece) => reader.feed(piece))).toEqual([data('\x1bé')]);
  });

  it('gives a cut character up as its bytes when nothing completes it', () => {
    const reader = new KeyReader();
    expect(reader.feed(Buffer.from([0x61, 0xe4, 0xb8]))).toEqual([data('a')]);
    const [held] = reader.flush();
    expect(held?.type === 'data' && held.bytes).toEqual(Buffer.from([0xe4, 0xb8]));
  });

  it('keeps a pasted UTF-8 text split mid-character byte for byte', () => {
    const paste = Buffer.from('\x1b[200~naïve 世界\r\x1b[201~', 'utf8');
    const reader = new KeyReader();
    const events = [paste.subarray(0, 9), paste.subarray(9, 17), paste.subarray(17)].flatMap((piece) => reader.feed(piece));
    expect(events).toEqual([data('\x1b[200~naïve 世界\r\x1b[201~')]);
  });
});

describe('parseCommandKey', () => {
  it('maps the config strings to control bytes', () => {
    expect(parseCommandKey('ctrl+]')).toBe('\x1d');
    expect(parseCommandKey('ctrl+g')).toBe('\x07');
    expect(parseCommandKey('ctrl+\\')).toBe('\x1c');
    expect(parseCommandKey('Ctrl+A')).toBe('\x01');
    expect(parseCommandKey('ctrl+@')).toBe('\x00');
    expect(parseCommandKey('ctrl+^')).toBe('\x1e');
    expect(parseCommandKey('ctrl+_')).toBe('\x1f');
  });

  it('refuses keys it cannot tell apart from Esc, Enter or Tab, and nonsense', () => {
    expect(() => parseCommandKey('ctrl+[')).toThrow(/same byte for Esc/);
    expect(() => parseCommandKey('ctrl+m')).toThrow(/same byte for Enter/);
    expect(() => parseCommandKey('ctrl+i')).toThrow(/same byte for Tab/);
    expect(() => parseCommandKey('alt+x')).toThrow(/ctrl\+ and a letter/);
    expect(() => parseCommandKey('ctrl+1')).toThrow(/ctrl\+ and a letter/);
  });
});

describe('LineTracker', () => {
  it('collects typed text and trims it', () => {
    const line = new LineTracker();
    line.feed('  fix ');
    line.feed('the bug ');
    expect(line.peek()).toBe('fix the bug');
    expect(line.take()).toBe('fix the bug');
    expect(line.take()).toBe('');
  });

  it('applies Backspace, Ctrl-U, Ctrl-W and Alt+Backspace', () => {
    const line = new LineTracker();
    line.feed('helo\x7f\x7fllo wörle\x08d');
    expect(line.peek()).toBe('hello wörld');
    line.feed('\x17');
    expect(line.peek()).toBe('hello');
    line.feed(' again  \x17');
    expect(line.peek()).toBe('hello');
    line.feed('\x15new');
    expect(line.peek()).toBe('new');
    line.feed(' words\x1b\x7f');
    expect(line.peek()).toBe('new');
    line.feed('\x03');
    expect(line.peek()).toBe('');
  });

  it('ignores escape sequences and Alt keys', () => {
    const line = new LineTracker();
    line.feed('ab\x1b[D\x1b[1;5C\x1bOA\x1bxc\x1b[<0;3;4M\x1b[M !"d');
    expect(line.take()).toBe('abcd');
  });

  it('appends a paste with newlines as spaces, even across feeds', () => {
    const line = new LineTracker();
    line.feed('see \x1b[200~line 1\r\nline 2\x1b[201~ ok');
    expect(line.take()).toBe('see line 1 line 2 ok');
    line.feed('\x1b[200~a\n');
    line.feed('b\x1b[201~');
    expect(line.take()).toBe('a b');
  });
});
