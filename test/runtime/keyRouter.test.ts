// Where keys go, without a pty: a small host that records what the router asks of it, and a
// clock the test moves by hand (Esc Esc is timed).
import { describe, expect, it } from 'vitest';
import type { KeyEvent } from '../../src/pty/keys.js';
import { scrollPieces, type ScrollPiece } from '../../src/pty/scrollKeys.js';
import { KeyRouter, type KeyHost, type KeyLayer } from '../../src/runtime/session/keyRouter.js';
import { waitFor } from '../helpers/waitFor.js';

/** A session in miniature: the layer it shows, and a log of what reached the agent and what ran. */
class RecordingHost implements KeyHost {
  log: string[] = [];
  shown: KeyLayer = 'pane';
  commandError: string | undefined;
  /** While set, a checkpoint before Enter waits for it. */
  checkpointGate: Promise<void> | undefined;

  layer(): KeyLayer {
    return this.shown;
  }
  /** What reached the agent when each line started (see lineStarted), apart from the log. */
  lineStarts: number[] = [];
  lineStarted(): void {
    this.lineStarts.push(this.log.filter((entry) => entry.startsWith('agent ')).length);
  }
  toAgent(bytes: Uint8Array): void {
    this.log.push(`agent ${JSON.stringify(Buffer.from(bytes).toString('latin1'))}`);
  }
  async beforeEnter(line: string): Promise<void> {
    this.log.push(`checkpoint start ${JSON.stringify(line)}`);
    await this.checkpointGate;
    this.log.push('checkpoint done');
  }
  async openPicker(): Promise<void> {
    this.log.push('picker');
    this.shown = 'picker';
  }
  async runCommand(line: string): Promise<string | undefined> {
    this.log.push(`command ${JSON.stringify(line)}`);
    return this.commandError;
  }
  closeOverlay(): void {
    this.log.push('close');
    this.shown = 'pane';
  }
  changed(): void {}
  /** Whether a first Esc is held back (an idle agent with an Esc Esc of its own). */
  holdEsc = false;
  holdFirstEsc(): boolean {
    return this.holdEsc;
  }
  /** Whether the pane scrolls (off: an agent on its alternate screen), and whether Rewind has the mouse. */
  scrolling: { mouse: boolean } | undefined = { mouse: true };
  scrollPieces(input: string): ScrollPiece[] | undefined {
    return this.scrolling && scrollPieces(input, this.scrolling.mouse);
  }
  scroll(piece: Exclude<ScrollPiece, { pass: string }>): void {
    this.log.push(`scroll ${JSON.stringify(piece)}`);
  }
}

function setup(doubleEscMs = 400): { host: RecordingHost; keys: KeyRouter; clock: { now: number }; type: (...chunks: string[]) => Promise<void> } {
  const host = new RecordingHost();
  const clock = { now: 1_000_000 };
  const keys = new KeyRouter(host, { commandKey: '\x1d', doubleEscMs, heldKeysMs: 20, now: () => clock.now });
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) keys.input(chunk);
    await keys.settled();
  };
  return { host, keys, clock, type };
}

const esc = 'agent "\\u001b"';

describe('KeyRouter: Esc Esc', () => {
  it('opens the picker on a second lone Esc within double_esc_ms; the first Esc still reaches the agent', async () => {
    const { host, clock, type } = setup(400);
    await type('\x1b');
    clock.now += 400;
    await type('\x1b');
    expect(host.log).toEqual([esc, 'picker']);
  });

  it('reads Esc Esc in one read as Esc Esc', async () => {
    const { host, type } = setup();
    await type('\x1b\x1b');
    expect(host.log).toEqual([esc, 'picker']);
  });

  it('Esc, another key, Esc is not Esc Esc, however quick', async () => {
    const { host, type } = setup();
    await type('\x1b', 'x', '\x1b');
    expect(host.log).toEqual([esc, 'agent "x"', esc]);
  });

  it('two Escs further apart than double_esc_ms are two Escs for the agent', async () => {
    const { host, clock, type } = setup(400);
    await type('\x1b');
    clock.now += 401;
    await type('\x1b');
    expect(host.log).toEqual([esc, esc]);
  });

  it('after Esc Esc, a third Esc starts over (it goes wherever keys go now)', async () => {
    const { host, type } = setup();
    await type('\x1b', '\x1b');
    host.closeOverlay();
    await type('\x1b');
    expect(host.log).toEqual([esc, 'picker', 'close', esc]);
  });
});

describe('KeyRouter: a first Esc held back from an idle agent with an Esc Esc of its own', () => {
  it('never reaches the agent when it is the first of an Esc Esc: the agent is as it was', async () => {
    const { host, clock, type } = setup(400);
    host.holdEsc = true;
    await type('\x1b');
    expect(host.log).toEqual([]);
    clock.now += 300;
    await type('\x1b');
    expect(host.log).toEqual(['picker']);
  });

  it('reaches the agent once the window is over without a second Esc', async () => {
    const { host, keys, type } = setup(40);
    host.holdEsc = true;
    await type('\x1b');
    expect(host.log).toEqual([]);
    await waitFor(() => host.log.length === 1, 5_000, 'the held Esc to reach the agent');
    await keys.settled();
    expect(host.log).toEqual([esc]);
  });

  it('reaches the agent before a key typed within the window, in order, as two keys', async () => {
    const { host, clock, type } = setup(400);
    host.holdEsc = true;
    await type('\x1b');
    clock.now += 30;
    await type('h', 'i');
    expect(host.log).toEqual([esc, 'agent "h"', 'agent "i"']);
  });

  it('a second Esc after a held one that went through is a new first Esc', async () => {
    const { host, clock, type } = setup(400);
    host.holdEsc = true;
    await type('\x1b', 'x');
    clock.now += 100;
    await type('\x1b');
    clock.now += 100;
    await type('\x1b');
    expect(host.log).toEqual([esc, 'agent "x"', 'picker']);
  });

  it('is not held from a busy agent: the first Esc interrupts it at once', async () => {
    const { host, type } = setup(400);
    host.holdEsc = false;
    await type('\x1b', '\x1b');
    expect(host.log).toEqual([esc, 'picker']);
  });
});

describe('KeyRouter: Enter', () => {
  it('takes the checkpoint, labelled with the typed line, before the Enter reaches the agent; later keys wait', async () => {
    const { host, keys, type } = setup();
    let open!: () => void;
    host.checkpointGate = new Promise((resolve) => (open = resolve));
    await type('fix the bug');
    keys.input('\r');
    keys.input('y');
    await waitFor(() => host.log.includes('checkpoint start "fix the bug"'), 5_000, 'the checkpoint to start');
    expect(host.log).toEqual(['agent "fix the bug"', 'checkpoint start "fix the bug"']);
    open();
    await keys.settled();
    expect(host.log).toEqual(['agent "fix the bug"', 'checkpoint start "fix the bug"', 'checkpoint done', 'agent "\\r"', 'agent "y"']);
  });

  it('tells the host before the first key of each line reaches the agent: after an Enter, after a Ctrl-C', async () => {
    const { host, type } = setup();
    await type('one', 'more', '\r', '\x1b[A', '\r', 'abc', '\x03', 'def', '\r');
    // Keys sent before each start: none, then one, more, Enter (3), Up, Enter (5), abc, Ctrl-C (7).
    expect(host.lineStarts).toEqual([0, 3, 5, 7]);
  });

  it('labels each Enter with the line since the previous one (Backspace applied)', async () => {
    const { host, type } = setup();
    await type('one\r', 'twoo\x7f\r', '\r');
    expect(host.log.filter((entry) => entry.startsWith('checkpoint start'))).toEqual(['checkpoint start "one"', 'checkpoint start "two"', 'checkpoint start ""']);
  });
});

describe('KeyRouter: bytes', () => {
  it('forwards exactly the bytes read, and labels with whole characters, when a UTF-8 character is split across reads', async () => {
    const { host, keys } = setup();
    const typed = Buffer.from('café', 'utf8');
    keys.input(typed.subarray(0, 4)); // 'caf' and the first byte of é
    keys.input(Buffer.concat([typed.subarray(4), Buffer.from('\r')]));
    await keys.settled();
    const sent = host.log.filter((entry) => entry.startsWith('agent ')).map((entry) => JSON.parse(entry.slice('agent '.length)) as string);
    expect(Buffer.from(sent.join(''), 'latin1')).toEqual(Buffer.concat([typed, Buffer.from('\r')]));
    expect(host.log).toContain('checkpoint start "café"');
  });
});

describe('KeyRouter: the command bar', () => {
  it('opens on the command key, edits the line without the agent seeing it, runs it on Enter', async () => {
    const { host, keys, type } = setup();
    await type('\x1d');
    expect(keys.commandBar).toEqual({ text: '' });
    await type('/chekc\x7f\x7fckpoint', ' before refactor');
    expect(keys.commandBar).toEqual({ text: '/checkpoint before refactor' });
    await type('\r');
    expect(keys.commandBar).toBeUndefined();
    expect(host.log).toEqual(['command "/checkpoint before refactor"']);
    // Keys reach the agent again.
    await type('z');
    expect(host.log.at(-1)).toBe('agent "z"');
  });

  it('shows the error of a command that failed, with the line kept', async () => {
    const { host, keys, type } = setup();
    host.commandError = 'unknown command /nope';
    await type('\x1d', '/nope', '\r');
    expect(keys.commandBar).toEqual({ text: '/nope', error: 'unknown command /nope' });
  });

  it('closes on Esc, Ctrl-C or the command key, running nothing', async () => {
    for (const closer of ['\x1b', '\x03', '\x1d']) {
      const { host, keys, type } = setup();
      await type('\x1d', '/redo', closer);
      expect(keys.commandBar, JSON.stringify(closer)).toBeUndefined();
      expect(host.log).toEqual([]);
    }
  });
});

describe('KeyRouter: panels and the picker', () => {
  it('a panel takes no keys but those that close it (Esc, Enter, q, Ctrl-C)', async () => {
    const { host, type } = setup();
    for (const closer of ['\x1b', '\r', 'q', '\x03']) {
      host.shown = 'overlay';
      await type('x', closer);
    }
    expect(host.log).toEqual(['close', 'close', 'close', 'close']);
  });

  it('keys for the picker wait until it subscribes, in order; a new picker drops those left over', async () => {
    const { host, keys, type } = setup();
    host.shown = 'picker';
    await type('\x1b[A', 'ab', '\r');
    const seen: KeyEvent[] = [];
    const unsubscribe = keys.pickerKeys.subscribe((event) => seen.push(event));
    await type('\x1b');
    expect(seen).toEqual([{ type: 'data', data: '\x1b[A', bytes: Buffer.from('\x1b[A') }, { type: 'data', data: 'ab', bytes: Buffer.from('ab') }, { type: 'enter' }, { type: 'esc' }]);
    unsubscribe();
    await type('left over');
    keys.pickerOpened();
    const next: KeyEvent[] = [];
    keys.pickerKeys.subscribe((event) => next.push(event));
    expect(next).toEqual([]);
    expect(host.log).toEqual([]);
  });
});

describe('KeyRouter: held sequences', () => {
  it('sends a sequence cut off with nothing after it once the wait is over (Alt+[)', async () => {
    const { host, keys } = setup();
    keys.input('\x1b[');
    expect(host.log).toEqual([]);
    await waitFor(() => host.log.length > 0, 5_000, 'the held sequence to be sent');
    expect(host.log).toEqual(['agent "\\u001b["']);
  });
});

describe('KeyRouter: scrolling the pane', () => {
  it('takes Shift+PgUp / Shift+PgDn and wheel reports out of what reaches the agent, in order', async () => {
    const { host, type } = setup();
    await type('a\x1b[5;2~b', '\x1b[<64;3;4M\x1b[<65;3;4M', '\x1b[6;2~', '\x1b[<0;3;4M\x1b[<0;3;4mc');
    expect(host.log).toEqual([
      'agent "a"',
      'scroll {"scroll":"pageUp"}',
      'agent "b"',
      'scroll {"scroll":"lines","lines":-3}',
      'scroll {"scroll":"lines","lines":3}',
      'scroll {"scroll":"pageDown"}',
      'scroll {"mouse":"other"}',
      'scroll {"mouse":"other"}',
      'agent "c"',
    ]);
  });

  it('leaves mouse reports to the agent when Rewind did not ask for them, and everything when the pane does not scroll', async () => {
    const { host, type } = setup();
    host.scrolling = { mouse: false };
    await type('\x1b[<64;3;4M');
    host.scrolling = undefined;
    await type('\x1b[5;2~');
    expect(host.log).toEqual(['agent "\\u001b[<64;3;4M"', 'agent "\\u001b[5;2~"']);
  });

  it('never scrolls on a paste', async () => {
    const { host, type } = setup();
    await type('\x1b[200~x\x1b[5;2~y\x1b[201~');
    expect(host.log).toEqual(['agent "\\u001b[200~x\\u001b[5;2~y\\u001b[201~"']);
  });
});

describe('KeyRouter: keys in the kitty keyboard protocol (the agent asked the terminal for it)', () => {
  const kittyEsc = '\x1b[27u';
  const kittyEscUp = '\x1b[27;1:3u';

  it('Esc Esc opens the picker with each Esc as `CSI 27 u`, its releases between; the first Esc reaches the agent as sent', async () => {
    const { host, type } = setup();
    await type(kittyEsc, kittyEscUp, kittyEsc);
    expect(host.log).toEqual(['agent "\\u001b[27u"', 'agent "\\u001b[27;1:3u"', 'picker']);
  });

  it('a held first Esc goes to the agent as sent once the window is over; its release, typed meanwhile, is dropped', async () => {
    const { host, keys, type } = setup(40);
    host.holdEsc = true;
    await type(kittyEsc, kittyEscUp);
    expect(host.log).toEqual([]);
    await waitFor(() => host.log.length === 1, 5_000, 'the held Esc to reach the agent');
    await keys.settled();
    expect(host.log).toEqual(['agent "\\u001b[27u"']);
  });

  it('Enter as `CSI 13 u` takes its checkpoint and reaches the agent as sent; Shift+Enter is a newline, no checkpoint', async () => {
    const { host, type } = setup();
    await type('hi', '\x1b[13;2u', 'there', '\x1b[13u');
    expect(host.log).toEqual(['agent "hi"', 'agent "\\u001b[13;2u"', 'agent "there"', 'checkpoint start "hi there"', 'checkpoint done', 'agent "\\u001b[13u"']);
  });

  it('the command key as `CSI 93 ; 5 u` opens the command bar; text keys as `CSI code u` are typed there; releases go nowhere', async () => {
    const { host, keys, type } = setup();
    await type('\x1b[93;5u', '\x1b[93;5:3u', '\x1b[113u', '\x1b[113;1:3u', '\x1b[13u');
    expect(keys.commandBar).toBeUndefined();
    expect(host.log).toEqual(['command "q"']);
  });
});
