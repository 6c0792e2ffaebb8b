import type { AppView, OverlayView, PaneFrame } from '../../app/view.js';
import type { PickerModel } from '../../app/picker/types.js';
import { paneHeightOf } from '../../app/paneSize.js';
import { scrollPanel } from '../../app/panelBody.js';
import type { MoveKey } from '../../app/picker/pickerKeys.js';
import { genericAgent } from '../../agents/generic.js';
import type { RewindConfig } from '../../config/schema.js';
import type { PtyExit } from '../../pty/ptySession.js';
import { AgentPane } from './agentPane.js';
import { messageOf } from '../../shared/errors.js';
import { spawnAgent } from './spawnAgent.js';
import { parseCommandKey } from '../../pty/keys.js';
import { isFocusReport, type InputModes } from '../../pty/terminalModes.js';
import { ActivityTracker } from '../checkpointing/activity.js';
import { AdapterGuard } from '../../agents/adapterGuard.js';
import { commandKeyLabel, runAppCommand } from './appCommands.js';
import type { CheckpointAvailability, Checkpointer } from '../checkpointing/checkpointer.js';
import { CheckpointTriggers, type ChangedSince, type CheckpointAsk } from '../checkpointing/checkpointTriggers.js';
import { commandHint } from './commandLine.js';
import { EnterLabels } from '../checkpointing/enterLabel.js';
import { SessionFrames } from './sessionFrames.js';
import { HookCalls } from '../../hooks/hookCalls.js';
import { KeyRouter } from './keyRouter.js';
import { Notices, type SaidNotice, type Tone } from './notices.js';
import { PaneScroll } from './paneScroll.js';
import { openPicker } from '../restore/pickerFlow.js';
import { agentControlOf, RestoreNoticeHold } from '../restore/restoreAgent.js';
import { RestoreCoordinator } from '../restore/restoreCoordinator.js';
import type { SessionPort } from './sessionPort.js';
import type { SessionOptions } from './appOptions.js';

/** How long a first hint stays (unless the first Enter comes before). */
const hintMs = 60_000;

/** What is open over the pane (the command bar is the keys' own: see KeyRouter). */
type Mode = { kind: 'pane' } | { kind: 'overlay'; overlay: OverlayView } | { kind: 'picker'; model: PickerModel };

/**
 * One agent session: the agent in a pty and its emulated screen, wired to the session's
 * parts: frame pacing (FramePacer), notices (Notices), the keys (KeyRouter), the checkpoint
 * triggers (CheckpointTriggers), restores (RestoreCoordinator) and the agent's adapter
 * (behind AdapterGuard). No Ink here: the UI subscribes to `view()`. The picker and the
 * command bar see only its SessionPort side.
 */
export class SessionController implements SessionPort {
  private readonly pane: AgentPane;
  private readonly keys: KeyRouter;
  private readonly activity: ActivityTracker;
  private readonly restoreNotice = new RestoreNoticeHold(() => this.activity.atPrompt());
  private readonly frames: SessionFrames;
  private readonly notices: Notices;
  private readonly triggers: CheckpointTriggers;
  readonly restores: RestoreCoordinator;
  readonly agent: AdapterGuard;
  private mode: Mode = { kind: 'pane' };
  private columns: number;
  private rows: number;
  private readonly enterLabels: EnterLabels;
  private quitting = false;
  private pickerOpened = 0;
  /** Whether the outer terminal speaks the kitty keyboard protocol (it said so as the app started). */
  private outerKitty = false;
  private readonly hookCalls: HookCalls;
  private readonly scroller: PaneScroll;
  /** This session's id: on its checkpoints, and REWIND_SESSION for the agent (its hooks). */
  readonly sessionId: string;

  constructor(private readonly options: SessionOptions) {
    this.columns = options.columns;
    this.rows = options.rows;
    this.sessionId = options.sessionId;
    this.frames = new SessionFrames({
      pane: () => ({ rows: this.pane.screen.rows(), cursor: this.pane.screen.cursor() }),
      view: (pane) => this.buildView(pane),
      outerModes: () => this.outerKeyboard(this.scroller.outerModes(this.pane.screen.modes())),
      writeOuter: (data) => this.options.writeOuter(data),
      synchronizedUpdate: () => this.pane.screen.synchronizedUpdate(),
    });
    const changed = () => this.changed();
    this.notices = new Notices(changed);
    this.agent = new AdapterGuard(options.agent ?? genericAgent, (message) => this.notices.problem(message));
    this.activity = new ActivityTracker(undefined, undefined, this.agent.adapter.activity === 'hooks');
    this.triggers = new CheckpointTriggers({ id: this.sessionId, agent: () => this.agent.name, working: () => this.activity.busy() }, this.notices, changed);
    const restoring = <T>(work: (changed: ChangedSince) => Promise<T>) => (this.restoreNotice.began(), this.triggers.withWatcherPaused(work));
    this.restores = new RestoreCoordinator(agentControlOf(this.activity, () => this.sendToAgent('\x03')), this.notices, restoring);
    this.pane = new AgentPane(options.pty, { columns: this.columns, rows: this.paneRows }, options.config.scrollback_lines, {
      activity: this.activity,
      changed,
      keySent: () => this.frames.keySent(),
      busyShown: () => this.frames.view.status.agent !== 'agent idle',
      writeOuter: (data) => this.options.writeOuter(data),
      colours: options.colours,
      keyboard: options.keyboard,
    });
    void options.keyboard?.then((keyboard) => {
      this.outerKitty = keyboard.kitty;
      changed();
    });
    this.scroller = new PaneScroll({ screen: () => this.pane.screen, paneRows: () => this.paneRows, paneShown: () => this.mode.kind === 'pane', changed }, options.config.mouse_wheel_scroll);
    this.enterLabels = new EnterLabels(this.pane.screen, this.activity);
    this.keys = new KeyRouter(
      {
        layer: () => this.mode.kind,
        toAgent: (bytes) => {
          // A key for the agent shows the live screen first.
          this.scroller.toLive();
          this.sendToAgent(bytes);
        },
        scrollPieces: (input) => this.scroller.pieces(input),
        scroll: (piece) => this.scroller.scroll(piece),
        lineStarted: () => this.enterLabels.lineStarted(),
        beforeEnter: async (typed) => {
          if (options.hint) this.notices.unsay(options.hint);
          this.hookCalls.promptSent();
          await this.triggers.beforeEnter(await this.enterLabels.atEnter(typed));
        },
        openPicker: () => openPicker(this),
        holdFirstEsc: () => this.agent.adapter.holdsFirstEsc === true && !this.activity.busy(),
        runCommand: (line) => runAppCommand(this, 'line', line),
        closeOverlay: () => this.closeOverlay(),
        scrollOverlay: (key) => this.scrollOverlay(key),
        changed,
        keyFailed: (error) => this.notices.problem(`a key could not be handled: ${messageOf(error)}`),
      },
      { commandKey: parseCommandKey(options.config.command_key), doubleEscMs: options.config.double_esc_ms },
    );
    if (options.checkpoints) this.attachCheckpoints(options.checkpoints);
    for (const problem of options.configProblems ?? []) this.notices.problem(problem);
    if (options.hint) this.notices.say(options.hint, 'info', hintMs);
    this.hookCalls = new HookCalls(
      this.agent,
      this.notices,
      this.triggers,
      (busy) => {
        this.activity.report(busy);
        this.changed();
      },
      options.env,
    );
    options.hooks?.attach((request) => this.hookCalls.handle(request));
  }

  /**
   * The keyboard modes the outer terminal should have: the agent's while it has the keys (the
   * kitty flags only where that terminal speaks the protocol); none while Rewind reads them
   * (the picker, a panel, the command bar), so they come as Rewind reads them best.
   */
  private outerKeyboard(modes: InputModes): InputModes {
    const agentKeys = this.mode.kind === 'pane' && !this.keys.commandBar;
    return { ...modes, kittyFlags: agentKeys && this.outerKitty ? modes.kittyFlags : 0, modifyOtherKeys: agentKeys ? modes.modifyOtherKeys : undefined };
  }

  /** What puts the outer terminal's keyboard back as it was before the session (its kitty entry popped, modifyOtherKeys reset), once: write it before leaving the alternate screen, where it was pushed. */
  releaseOuterKeyboard(): string {
    return this.frames.releaseKeyboard();
  }

  private get paneRows(): number {
    return paneHeightOf(this.rows);
  }

  // ---- the view ----------------------------------------------------------------------

  subscribe = (listener: () => void): (() => void) => this.frames.subscribe(listener);

  view = (): AppView => this.frames.view;

  /** Calls `listener` with each new frame of the agent's pane (at the frame pace, only when it changed): see SessionFrames. */
  onPaneFrame = (listener: (frame: PaneFrame) => void): (() => void) => this.frames.onPane(listener);

  private changed(): void {
    this.frames.request();
  }

  private buildView(pane: PaneFrame): AppView {
    return {
      columns: this.columns,
      rows: this.rows,
      ...(this.options.env.NO_COLOR ? { noColor: true } : {}),
      pane: this.mode.kind === 'overlay' ? pane : undefined,
      status: {
        ...this.triggers.status(),
        agent: this.activity.busy() ? 'agent busy' : 'agent idle',
        ...(this.scroller.back > 0 ? { scrolledBack: this.scroller.back } : {}),
        keys: this.keysHint(),
        notice: this.notices.current(),
      },
      commandBar: this.keys.commandBar && { ...this.keys.commandBar, hint: commandHint(this.keys.commandBar.text) },
      overlay: this.mode.kind === 'overlay' ? this.mode.overlay : undefined,
      picker: this.mode.kind === 'picker' ? { ...this.mode.model, agentBusy: this.activity.busy(), keys: this.keys.pickerKeys } : undefined,
      pickerOpened: this.pickerOpened,
    };
  }

  /**
   * The status line's keys. xterm keeps Shift+PgUp for its own scrollback (it never reaches
   * Rewind there): in xterm the wheel is named instead, and named while the pane has
   * something to scroll back to.
   */
  private keysHint(): string {
    const xterm = this.options.env.XTERM_VERSION !== undefined;
    if (this.scroller.back > 0) return `${xterm ? 'the wheel scrolls' : 'Shift+PgUp/PgDn scroll'} · a key returns to live`;
    return `Esc Esc rewind · ${xterm && this.scroller.wheelScrolls ? 'the wheel scrolls back · ' : ''}${commandKeyLabel(this.options.config.command_key)} commands`;
  }

  /** A one-line notice in the status line that fades after a few seconds (a restore's: once the agent is back at its prompt). */
  say(text: string, tone: Tone = 'info'): void {
    this.notices.say(text, tone, undefined, this.restoreNotice.holdForNext());
  }

  showOverlay(overlay: OverlayView): void {
    this.mode = { kind: 'overlay', overlay };
    this.changed();
  }

  private scrollOverlay(key: MoveKey): void {
    if (this.mode.kind !== 'overlay') return;
    this.mode = { kind: 'overlay', overlay: scrollPanel(this.mode.overlay, key, this.columns, this.rows) };
    this.changed();
  }

  closeOverlay(): void {
    this.mode = { kind: 'pane' };
    this.changed();
  }

  /** Opens the rewind picker with its data (see pickerFlow). */
  showPicker(model: PickerModel): void {
    this.keys.pickerOpened();
    this.pickerOpened++;
    this.mode = { kind: 'picker', model };
    this.changed();
  }

  /** Updates the open picker's data (the newest row's count, once known). */
  updatePicker(update: Partial<PickerModel>): void {
    if (this.mode.kind !== 'picker') return;
    this.mode = { kind: 'picker', model: { ...this.mode.model, ...update } };
    this.changed();
  }

  // ---- the agent ---------------------------------------------------------------------

  /** Settles with the agent's exit, once all its output was handed on. */
  get exited(): Promise<PtyExit> {
    return this.pane.exited;
  }

  /** Starts showing the agent (its output so far first) and reading its keys. */
  start(): void {
    this.pane.start(this.columns, this.paneRows);
  }

  /** Checkpoints for this session, once opened (the agent does not wait for them). */
  attachCheckpoints(availability: CheckpointAvailability): void {
    this.triggers.attach(availability);
  }

  /** Takes a checkpoint; a failure is a notice (and the answer), never the end of the session. */
  checkpoint(ask: CheckpointAsk): Promise<string | undefined> {
    return this.triggers.checkpoint(ask);
  }

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.pane.resize(columns, this.paneRows);
    this.changed();
  }

  /**
   * What the agent left on its normal screen (see ScreenModel.lastWords), once all of its
   * output is parsed: for the user's terminal after the app leaves its own screen.
   */
  lastWords(): Promise<string> {
    return this.pane.lastWords();
  }

  /** Stops the agent (SIGHUP, then SIGKILL) and everything the session started. */
  async stop(): Promise<void> {
    this.triggers.stop();
    this.keys.stop();
    this.frames.stop();
    this.notices.stop();
    this.hookCalls.stop();
    await this.pane.stop();
  }

  // ---- keys --------------------------------------------------------------------------

  /** Raw bytes from the user's terminal: see KeyRouter. */
  input(chunk: Uint8Array): void {
    // Focus reports (the agent asked for them, and the outer terminal was told to send them)
    // go to the agent as they are, whatever is open: they are not keys.
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    if (isFocusReport(text)) {
      if (this.pane.screen.modes().focusEvents) this.pane.report(text);
      return;
    }
    this.keys.input(chunk);
  }

  // ---- the SessionPort side: for the picker flow and the command bar -----------------

  get checkpoints(): Checkpointer | undefined {
    return this.triggers.checkpoints;
  }

  /** Resolves once checkpoints are open, with the session's first one taken (or known off). */
  checkpointsOpened(): Promise<void> {
    return this.triggers.opened();
  }

  /**
   * Why new checkpoints are not taken ('still opening' until they are open), while earlier
   * ones may still be restored; undefined when they are taken.
   */
  get checkpointsOffReason(): string | undefined {
    return this.triggers.offReason;
  }

  get config(): RewindConfig {
    return this.options.config;
  }

  /** What is wrong in config.json (the defaults stand in for those keys). */
  get configProblems(): readonly string[] {
    return this.options.configProblems ?? [];
  }

  get agentBusy(): boolean {
    return this.activity.busy();
  }

  /** How long the agent's output has been quiet (undefined: it has written nothing yet). */
  agentQuietFor(): number | undefined {
    return this.activity.outputQuietFor();
  }

  /** Writes to the agent as if typed (a key, an interrupt): what it answers within a moment is not work. */
  sendToAgent(data: string | Uint8Array): void {
    this.pane.send(data);
  }

  /**
   * Starts the agent again with `args` in place of the one running, on a fresh screen, in its
   * session `resumed` (none: a new one): what the resume line names until its hooks say more.
   */
  async restartAgent(args: (userArgs: readonly string[]) => string[], resumed?: string): Promise<void> {
    const { command, cwd, env, hooks, sessionId } = this.options;
    if (!command) throw new Error('no command to start the agent again');
    this.restoreNotice.began();
    await this.pane.replace(() => spawnAgent({ command, cwd, env, sessionId, agent: this.agent, hooks }, args(this.options.args ?? []), this.columns, this.paneRows).then(({ pty }) => pty));
    // Once the old agent is gone (a hook of its own, as it stops, still names its session).
    this.hookCalls.agentSession = resumed;
  }

  /** Problems met opening checkpoints or starting the triggers (each also said once as a notice). */
  get problems(): readonly string[] {
    return this.notices.problems;
  }

  /** The session's last notices, whole (see Notices.said). */
  get recentNotices(): readonly SaidNotice[] {
    return this.notices.said;
  }

  /** The user asked to leave (/quit): rewind exits 0, whatever the agent's end. */
  get quitRequested(): boolean {
    return this.quitting;
  }

  quit(): void {
    this.quitting = true;
    void this.askAgentToLeave().then(() => this.stop());
  }

  /** Presses the agent's own quit key until it leaves (its goodbye and resume hint drawn), a few seconds at most. */
  askAgentToLeave(): Promise<void> {
    return this.pane.askToLeave(this.agent.adapter.quitKey);
  }

  /** The agent's own session id, as its latest hook call gave it. */
  agentSession = (): string | undefined => this.hookCalls.agentSession;
}
