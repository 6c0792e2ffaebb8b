import type { PtyExit, PtySession } from '../../pty/ptySession.js';
import { ScreenModel } from '../../pty/screen.js';
import { clipboardSequence, windowTitleSequence } from '../../pty/terminalModes.js';
import { KITTY_QUERY } from '../../pty/keyboardModes.js';
import { isInterrupt, type ActivityTracker } from '../checkpointing/activity.js';
import { AgentProcess } from './agentProcess.js';
import type { TerminalColours } from '../../pty/terminalColours.js';
import type { OuterKeyboard } from '../../pty/screen.js';

/** What the pane tells the rest of the session, and asks of it. */
export interface AgentPaneParts {
  activity: ActivityTracker;
  /** Something to draw changed (a frame is asked for). */
  changed: () => void;
  /** A key went to the agent: its echo is drawn as soon as it comes. */
  keySent: () => void;
  /** Whether the status line still says the agent is busy (an idle check changes it only then). */
  busyShown: () => boolean;
  /** Where what the agent asks of the outer terminal goes (its bell, its window title, its copies to the clipboard). */
  writeOuter: (data: string) => void;
  /** The outer terminal's colours, once it told them (undefined: it told none): what the pane reports when the agent asks. */
  colours?: Promise<TerminalColours | undefined>;
  /** What the outer terminal told of its keyboard and name, settled with the colours: what the pane answers `CSI ? u` and XTVERSION with. */
  keyboard?: Promise<OuterKeyboard>;
}

/**
 * Whether the agent's output may hold a query the outer terminal's answers decide: a colour
 * (OSC 4, or 10 to 12), the kitty keyboard flags (`CSI ? u`), XTVERSION (`CSI > q`); a few others match too.
 */
function mayAskOuter(data: Buffer): boolean {
  return data.includes('\x1b]1') || data.includes('\x1b]4;') || data.includes(KITTY_QUERY) || data.includes('\x1b[>q') || data.includes('\x1b[>0q');
}

/**
 * The agent in its pty and the emulated screen its output is drawn on: the bytes both ways,
 * the busy/idle its output feeds, its size, and the agent started again in place (a
 * conversation restore).
 */
export class AgentPane {
  readonly screen: ScreenModel;
  private readonly process: AgentProcess;
  private idleTimer: NodeJS.Timeout | undefined;
  private clock: NodeJS.Timeout | undefined;

  constructor(
    pty: PtySession,
    size: { columns: number; rows: number },
    scrollbackLines: number,
    private readonly parts: AgentPaneParts,
  ) {
    this.process = new AgentProcess(pty);
    this.screen = new ScreenModel(size.columns, size.rows, scrollbackLines);
  }

  /** Settles with the agent's exit, once all its output was handed on. */
  get exited(): Promise<PtyExit> {
    return this.process.exited;
  }

  /** Starts drawing the agent (its output so far first) at `columns` x `rows`. */
  start(columns: number, rows: number): void {
    const { activity, changed, writeOuter } = this.parts;
    // The terminal may have been resized since the agent was started.
    this.process.resize(columns, rows);
    this.screen.onResponse((answer) => this.process.write(answer));
    // An agent's "done" bell reaches the user's terminal.
    this.screen.onBell(() => writeOuter('\x07'));
    // And its window title (Claude Code and others name the task there).
    this.screen.onTitle((title) => writeOuter(windowTitleSequence(title)));
    // And what it copies to the clipboard (OSC 52: Gemini CLI's /copy, over SSH), which only the outer terminal can reach.
    this.screen.onClipboard((data) => writeOuter(clipboardSequence(data)));
    // Per piece of output (thousands a second in a flood) only what must be: no timer is
    // re-armed and no callback queued per piece.
    this.screen.onParsed(changed);
    // Until the outer terminal told its colours and keyboard, output that asks for them waits
    // (with all after it, in order): answered with the defaults, the agent would pick the wrong
    // theme, or keys other than the terminal's.
    const { colours, keyboard } = this.parts;
    let outerKnown = colours === undefined && keyboard === undefined;
    let waiting: Buffer[] | undefined;
    void Promise.all([colours, keyboard]).then(([told, keys]) => {
      if (told) this.screen.setColours(told);
      if (keys) this.screen.setOuterKeyboard(keys);
      outerKnown = true;
      for (const data of waiting ?? []) this.screen.write(data);
      waiting = undefined;
    });
    this.process.onData((data) => {
      activity.sawOutput();
      if (!outerKnown && (waiting || mayAskOuter(data))) (waiting ??= []).push(data);
      else this.screen.write(data);
      this.idleTimer ??= setTimeout(() => this.idleCheck(), activity.untilIdle() + 10);
    });
    // The status line says how old the newest checkpoint is: keep that current.
    this.clock = setInterval(changed, 15_000);
    this.clock.unref();
    changed();
  }

  /** The status line says "agent idle" once the output has been quiet long enough. */
  private idleCheck(): void {
    this.idleTimer = undefined;
    const { activity } = this.parts;
    if (activity.busy()) this.idleTimer = setTimeout(() => this.idleCheck(), activity.untilIdle() + 10);
    // A frame only when the status line has something to change (not after every echo).
    else if (this.parts.busyShown()) this.parts.changed();
  }

  resize(columns: number, rows: number): void {
    this.screen.resize(columns, rows);
    this.process.resize(columns, rows);
  }

  /** Writes to the agent as if typed (a key, an interrupt): what it answers within a moment is not work. */
  send(data: string | Uint8Array): void {
    this.parts.activity.keySent();
    this.parts.keySent();
    if (isInterrupt(data)) this.parts.activity.interruptSent();
    this.process.write(data);
  }

  /** Writes a report of the outer terminal's to the agent (focus gained or lost): not typing, nothing waits for an answer. */
  report(data: string): void {
    this.process.write(data);
  }

  /**
   * Starts the agent again with `start` in place of the one running, on a fresh screen (the
   * old one goes once the new one runs: if it cannot start, the old one goes on).
   */
  replace(start: () => Promise<PtySession>): Promise<void> {
    return this.process.replace(() =>
      start().then((pty) => {
        this.screen.write('\x1bc');
        this.parts.activity.agentStarted();
        return pty;
      }),
    );
  }

  /** What the agent left on its normal screen (see ScreenModel.lastWords), once all of its output is parsed. */
  async lastWords(): Promise<string> {
    await this.screen.flush();
    return this.screen.lastWords();
  }

  /** Presses the agent's own quit key until it leaves (see AgentProcess.askToLeave). */
  askToLeave(quitKey: string | undefined): Promise<void> {
    return this.process.askToLeave(quitKey);
  }

  /** Stops the timers and the agent (SIGHUP, then SIGKILL). */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    clearInterval(this.clock);
    await this.process.terminate();
  }
}
