import type { KeySource } from '../../app/picker/types.js';
import { isMoveKey, pickerKeys, type MoveKey } from '../../app/picker/pickerKeys.js';
import { KeyReader, LineTracker, type KeyEvent } from '../../pty/keys.js';
import type { ScrollPiece } from '../../pty/scrollKeys.js';
import { editCommandLine } from './commandLine.js';

/** What is open over the agent's pane: it decides where keys go (the command bar aside). */
export type KeyLayer = 'pane' | 'overlay' | 'picker';

/** What the keys need from the session: the controller in the app, a small recorder in tests. */
export interface KeyHost {
  /** What is open over the pane now. */
  layer(): KeyLayer;
  /** Bytes for the agent, exactly as typed. */
  toAgent(bytes: Uint8Array): void;
  /** The first key of a line (after an Enter or a Ctrl-C) is about to reach the agent. */
  lineStarted(): void;
  /** The checkpoint an Enter waits for before it reaches the agent; `typed` is what was typed since the last Enter. */
  beforeEnter(typed: string): Promise<void>;
  /** Esc Esc. */
  openPicker(): Promise<void>;
  /**
   * Whether a first lone Esc waits (up to the Esc Esc window) before it reaches the agent:
   * for an idle agent with an Esc Esc of its own, so that Rewind's Esc Esc leaves it as it was.
   */
  holdFirstEsc(): boolean;
  /** The command bar's Enter: runs the line; resolves with an error to show in the bar, if any. */
  runCommand(line: string): Promise<string | undefined>;
  /** Closes the overlay (a panel) that is open. */
  closeOverlay(): void;
  /** Scrolls the open panel (↑↓ PgUp PgDn Home End). */
  scrollOverlay?(key: MoveKey): void;
  /** What the view shows of the keys (the command bar) changed. */
  changed(): void;
  /** A key could not be handled (the keys after it still are). */
  keyFailed?(error: unknown): void;
  /**
   * Typed bytes (a binary string) split into scrolls of the pane and bytes for the agent;
   * undefined when none of it scrolls the pane (see PaneScroll). Optional: nothing scrolls.
   */
  scrollPieces?(input: string): ScrollPiece[] | undefined;
  /** Scrolls the pane (Shift+PgUp, the wheel…). */
  scroll?(piece: Exclude<ScrollPiece, { pass: string }>): void;
}

const ESC_KEY = Buffer.from('\x1b');
const PASTE_START = '\x1b[200~';
const ENTER_KEY = Buffer.from('\r');

export interface KeyRouterOptions {
  /** The command key's byte (see parseCommandKey). */
  commandKey: string;
  /** Two lone Escs at most this far apart are Esc Esc. */
  doubleEscMs: number;
  /** How long an incomplete key sequence may wait for the rest of it; default 150 ms. */
  heldKeysMs?: number;
  /** The clock Esc Esc is timed by; default Date.now. */
  now?: () => number;
}

/** The command bar while it is open: the text typed and the error of the last Enter, if any. */
export interface CommandBar {
  text: string;
  error?: string;
}

/**
 * Where each key the user types goes: to the agent (Esc Esc opens the picker, Enter waits
 * for a checkpoint first, the command key opens the command bar), to the command bar while
 * it is open, to the picker or to a panel over the pane. Keys are handled strictly in
 * order, one at a time: a key that waits (Enter, Esc Esc) holds back those after it.
 */
export class KeyRouter {
  private readonly reader: KeyReader;
  private readonly line = new LineTracker();
  /** A key of the line being typed has reached the agent (the prompt was noted before it). */
  private lineOpen = false;
  private readonly now: () => number;
  private lastEsc = 0;
  /** A first Esc held back from the agent (see KeyHost.holdFirstEsc): when it was typed, and its timer. */
  private heldEsc: { at: number; timer: NodeJS.Timeout; bytes: Buffer } | undefined;
  private heldKeys: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private bar: CommandBar | undefined;
  private readonly pickerListeners = new Set<(event: KeyEvent) => void>();
  private pickerBacklog: KeyEvent[] = [];

  constructor(
    private readonly host: KeyHost,
    private readonly options: KeyRouterOptions,
  ) {
    this.reader = new KeyReader(options.commandKey);
    this.now = options.now ?? Date.now;
  }

  /** The command bar, while it is open. */
  get commandBar(): CommandBar | undefined {
    return this.bar;
  }

  /** Keys for the picker while it is open; keys typed before it subscribes wait for it, in order. */
  readonly pickerKeys: KeySource = {
    subscribe: (listener) => {
      this.pickerListeners.add(listener);
      const backlog = this.pickerBacklog;
      this.pickerBacklog = [];
      for (const event of backlog) listener(event);
      return () => this.pickerListeners.delete(listener);
    },
  };

  /** A new picker opens: keys left waiting for an earlier one are dropped. */
  pickerOpened(): void {
    this.pickerBacklog = [];
  }

  /** Raw input from the user's terminal (bytes; a string is taken as UTF-8 text). */
  input(chunk: Uint8Array | string): void {
    clearTimeout(this.heldKeys);
    this.enqueue(this.reader.feed(chunk));
    // A sequence cut off with nothing after it (Alt+[, a paste whose end never came) is
    // given up on and sent as it is, instead of holding every key that follows.
    if (this.reader.hasPending) this.heldKeys = setTimeout(() => this.enqueue(this.reader.flush()), this.options.heldKeysMs ?? 150);
  }

  /** Resolves once every key given so far has been handled. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** Stops the timers of held keys (the session ends). */
  stop(): void {
    clearTimeout(this.heldKeys);
    clearTimeout(this.heldEsc?.timer);
  }

  private enqueue(events: readonly KeyEvent[]): void {
    if (events.length === 0) return;
    this.enqueueTask(async () => {
      for (const event of events) await this.handle(event);
    });
  }

  private async handle(event: KeyEvent): Promise<void> {
    // A key's release (the kitty protocol's event types) is the agent's alone: Rewind acts on presses.
    if (event.type === 'release') return this.releaseKey(event);
    if (this.bar) return this.commandKey(this.bar, event);
    switch (this.host.layer()) {
      case 'overlay':
        return this.overlayKey(event);
      case 'picker':
        // Keys typed before the picker has mounted wait for it, in order.
        if (this.pickerListeners.size === 0) this.pickerBacklog.push(event);
        for (const listener of this.pickerListeners) listener(event);
        return;
      case 'pane':
        return this.paneKey(event);
    }
  }

  /**
   * A release goes to the agent while it has the keys, except an Esc's whose press is held
   * back (it may be the first of an Esc Esc): the agent gets no release of a press it never got.
   */
  private releaseKey(event: Extract<KeyEvent, { type: 'release' }>): void {
    if (this.bar || this.host.layer() !== 'pane' || (event.code === 27 && this.heldEsc)) return;
    this.host.toAgent(event.bytes);
  }

  private async paneKey(event: Exclude<KeyEvent, { type: 'release' }>): Promise<void> {
    // Esc Esc means two lone Escs in a row: Esc, x, Esc (in vim, say) is not it.
    if (event.type !== 'esc') {
      this.lastEsc = 0;
      await this.releaseEsc();
    }
    switch (event.type) {
      case 'esc': {
        const now = this.now();
        if (now - this.lastEsc <= this.options.doubleEscMs) {
          this.lastEsc = 0;
          // A held first Esc never reaches the agent: it is as it was before the Esc Esc.
          clearTimeout(this.heldEsc?.timer);
          this.heldEsc = undefined;
          await this.host.openPicker();
          return;
        }
        await this.releaseEsc();
        this.lastEsc = now;
        if (this.host.holdFirstEsc()) {
          // Given to the agent once the Esc Esc window is over without a second Esc.
          const timer = setTimeout(() => this.enqueueTask(() => this.releaseEsc(false)), this.options.doubleEscMs + 1);
          this.heldEsc = { at: now, timer, bytes: event.bytes ?? ESC_KEY };
          return;
        }
        // Otherwise the first Esc reaches the agent at once (as the terminal sent it), so a busy agent stops.
        this.host.toAgent(event.bytes ?? ESC_KEY);
        return;
      }
      case 'command':
        this.showBar({ text: '' });
        return;
      case 'enter':
        this.lineOpen = false;
        await this.host.beforeEnter(this.line.take());
        this.host.toAgent(event.bytes ?? ENTER_KEY);
        return;
      case 'data': {
        // A paste is text for the agent, whatever it holds.
        const pieces = event.data.startsWith(PASTE_START) ? undefined : this.host.scrollPieces?.(event.bytes.toString('latin1'));
        // Nothing in it scrolls: as read (its text, for the label, may differ from its bytes: keys the kitty protocol encodes).
        if (!pieces?.some((piece) => !('pass' in piece))) return this.dataToAgent(event.data, event.bytes);
        for (const piece of pieces) {
          if ('pass' in piece) {
            const bytes = Buffer.from(piece.pass, 'latin1');
            this.dataToAgent(bytes.toString('utf8'), bytes);
          } else this.host.scroll?.(piece);
        }
        return;
      }
    }
  }

  /**
   * Gives the agent the Esc held back, if any. A key typed after it (`keyFollows`) follows a
   * moment later (as long as the user waited, at most 50 ms), so the agent does not read the
   * two as one Alt+key.
   */
  private async releaseEsc(keyFollows = true): Promise<void> {
    const held = this.heldEsc;
    if (!held) return;
    clearTimeout(held.timer);
    this.heldEsc = undefined;
    this.host.toAgent(held.bytes);
    const gap = keyFollows ? Math.min(50, Math.max(0, this.now() - held.at)) : 0;
    if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
  }

  /** Runs `task` after the keys before it; one that fails is reported and the keys after it still go. */
  private enqueueTask(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((error: unknown) => this.host.keyFailed?.(error));
  }

  private dataToAgent(data: string, bytes: Buffer): void {
    if (!this.lineOpen) this.host.lineStarted();
    this.line.feed(data);
    this.host.toAgent(bytes);
    // After a Ctrl-C a shell starts a new line, with a new prompt.
    this.lineOpen = !data.includes('\x03');
  }

  private async commandKey(bar: CommandBar, event: KeyEvent): Promise<void> {
    if (event.type === 'esc' || event.type === 'command' || (event.type === 'data' && event.data === '\x03')) {
      this.showBar(undefined);
      return;
    }
    if (event.type === 'enter') {
      this.showBar(undefined);
      const error = await this.host.runCommand(bar.text);
      if (error) this.showBar({ text: bar.text, error });
      return;
    }
    if (event.type === 'data') this.showBar({ text: editCommandLine(bar.text, event.data) });
  }

  private overlayKey(event: KeyEvent): void {
    if (event.type === 'esc' || event.type === 'enter' || (event.type === 'data' && (event.data === '\x03' || event.data === 'q'))) {
      this.host.closeOverlay();
      return;
    }
    for (const key of pickerKeys(event)) if (isMoveKey(key)) this.host.scrollOverlay?.(key.type);
  }

  private showBar(bar: CommandBar | undefined): void {
    this.bar = bar;
    this.host.changed();
  }
}
