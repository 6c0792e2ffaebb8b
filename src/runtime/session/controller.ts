import type { AppView, OverlayView, PaneFrame } from '../../app/view.js';
import type { PickerModel } from '../../app/picker/types.js';
import { paneHeightOf } from '../../app/paneSize.js';
import { genericAgent } from '../../agents/generic.js';
import type { AgentAdapter } from '../../agents/agentAdapter.js';
import type { RewindConfig } from '../../config/schema.js';
import type { PtySession, PtyExit } from '../../pty/ptySession.js';
import { AgentProcess } from './agentProcess.js';
import { messageOf } from '../../shared/errors.js';
import { spawnAgent } from './spawnAgent.js';
import { ScreenModel } from '../../pty/screen.js';
import { parseCommandKey } from '../../pty/keys.js';
import { windowTitleSequence } from '../../pty/terminalModes.js';
import { ActivityTracker, isInterrupt } from '../checkpointing/activity.js';
import { AdapterGuard } from '../../agents/adapterGuard.js';
import { commandKeyLabel, runAppCommand } from './appCommands.js';
import type { CheckpointAvailability, Checkpointer } from '../checkpointing/checkpointer.js';
import { CheckpointTriggers, type CheckpointAsk } from '../checkpointing/checkpointTriggers.js';
import { commandHint } from './commandLine.js';
import { EnterLabels } from '../checkpointing/enterLabel.js';
import { SessionFrames } from './sessionFrames.js';
import type { HookChannel } from '../../hooks/hookChannel.js';
import { HookCalls } from '../../hooks/hookCalls.js';
import { KeyRouter } from './keyRouter.js';
import { Notices, type SaidNotice, type Tone } from './notices.js';
import { PaneScroll } from './paneScroll.js';
import { openPicker } from '../restore/pickerFlow.js';
import { agentControlOf, RestoreNoticeHold } from '../restore/restoreAgent.js';
import { RestoreCoordinator } from '../restore/restoreCoordinator.js';
import type { SessionPort } from './sessionPort.js';

export interface SessionOptions {
  /** The agent, started in a pty sized to the pane (see paneHeightOf). */
  pty: PtySession;
  /** The agent's command and the user's arguments: to start it again (a conversation restore). */
  command?: string;
  args?: readonly string[];
  /** This session's id (newSessionId): the agent has it as REWIND_SESSION. */
  sessionId: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: RewindConfig;
  /** The agent's adapter (default: the generic agent). */
  agent?: AgentAdapter;
  /** The channel its hooks call (an agent with hooks). */
  hooks?: HookChannel;
  /** A first hint in the status line, shown until the first Enter (or for a while). */
  hint?: string;
  /** What is wrong in config.json (each key's default stands in): said once the agent shows. */
  configProblems?: readonly string[];
  /** Known at once, or attached later (the agent starts first). */
  checkpoints?: CheckpointAvailability;
  columns: number;
  rows: number;
  /** Where mode changes for the outer terminal are written (the real stdout). */
  writeOuter: (data: string) => void;
}

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
  private readonly agentProcess: AgentProcess;
  private screen: ScreenModel;
  private readonly keys: KeyRouter;
  private readonly activity: ActivityTracker;
  private readonly restoreNotice = new RestoreNoticeHold(() => this.activity.atPrompt());
  private readonly frames: SessionFrames;
  private readonly notices: Notices;
  private readonly triggers: CheckpointTriggers;
  readonly restores: RestoreCoordinator;
  readonly agent: AdapterGuard;
  private mode: Mode = { kind: 'pane' };
  private clock: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private columns: number;
  private rows: number;
  private readonly enterLabels: EnterLabels;
  private quitting = false;
  private readonly hookCalls: HookCalls;
  private readonly scroller: PaneScroll;
  /** This session's id: on its checkpoints, and REWIND_SESSION for the agent (its hooks). */
  readonly sessionId: string;

  constructor(private readonly options: SessionOptions) {
    this.columns = options.columns;
    this.rows = options.rows;
    this.sessionId = options.sessionId;
    this.agentProcess = new AgentProcess(options.pty);
    this.frames = new SessionFrames({
      pane: () => ({ rows: this.screen.rows(), cursor: this.screen.cursor() }),
      view: (pane) => this.buildView(pane),
      outerModes: () => this.scroller.outerModes(this.screen.modes()),
      writeOuter: (data) => this.options.writeOuter(data),
    });
    const changed = () => this.changed();
    this.notices = new Notices(changed);
    this.agent = new AdapterGuard(options.agent ?? genericAgent, (message) => this.notices.problem(message));
    this.activity = new ActivityTracker(undefined, undefined, this.agent.adapter.activity === 'hooks');
    this.triggers = new CheckpointTriggers({ id: this.sessionId, agent: () => this.agent.name }, this.notices, changed);
    const restoring = <T>(work: () => Promise<T>) => (this.restoreNotice.began(), this.triggers.withWatcherPaused(work));
    this.restores = new RestoreCoordinator(agentControlOf(this.activity, () => this.sendToAgent('\x03')), this.notices, restoring);
    this.screen = new ScreenModel(this.columns, this.paneRows, options.config.scrollback_lines);
    this.scroller = new PaneScroll({ screen: () => this.screen, paneRows: () => this.paneRows, paneShown: () => this.mode.kind === 'pane', changed }, options.config.mouse_wheel_scroll);
    this.enterLabels = new EnterLabels(this.screen, this.activity);
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
        keys: this.scroller.back > 0 ? 'Shift+PgUp/PgDn scroll · a key returns to live' : `Esc Esc rewind · ${commandKeyLabel(this.options.config.command_key)} commands`,
        notice: this.notices.current(),
      },
      commandBar: this.keys.commandBar && { ...this.keys.commandBar, hint: commandHint(this.keys.commandBar.text) },
      overlay: this.mode.kind === 'overlay' ? this.mode.overlay : undefined,
      picker: this.mode.kind === 'picker' ? { ...this.mode.model, agentBusy: this.activity.busy(), keys: this.keys.pickerKeys } : undefined,
    };
  }

  /** A one-line notice in the status line that fades after a few seconds (a restore's: once the agent is back at its prompt). */
  say(text: string, tone: Tone = 'info'): void {
    this.notices.say(text, tone, undefined, this.restoreNotice.holdForNext());
  }

  showOverlay(overlay: OverlayView): void {
    this.mode = { kind: 'overlay', overlay };
    this.changed();
  }

  closeOverlay(): void {
    this.mode = { kind: 'pane' };
    this.changed();
  }

  /** Opens the rewind picker with its data (see pickerFlow). */
  showPicker(model: PickerModel): void {
    this.keys.pickerOpened();
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
    return this.agentProcess.exited;
  }

  /** Starts showing the agent (its output so far first) and reading its keys. */
  start(): void {
    // The terminal may have been resized since the agent was started.
    this.agentProcess.resize(this.columns, this.paneRows);
    this.screen.onResponse((answer) => this.agentProcess.write(answer));
    // An agent's "done" bell reaches the user's terminal.
    this.screen.onBell(() => this.options.writeOuter('\x07'));
    // And its window title (Claude Code and others name the task there).
    this.screen.onTitle((title) => this.options.writeOuter(windowTitleSequence(title)));
    // Per piece of output (thousands a second in a flood) only what must be: no timer is
    // re-armed and no callback queued per piece.
    this.screen.onParsed(() => this.changed());
    this.agentProcess.onData((data) => {
      this.activity.sawOutput();
      this.screen.write(data);
      this.idleTimer ??= setTimeout(() => this.idleCheck(), this.activity.untilIdle() + 10);
    });
    // The status line says how old the newest checkpoint is: keep that current.
    this.clock = setInterval(() => this.changed(), 15_000);
    this.clock.unref();
    this.changed();
  }

  /** The status line says "agent idle" once the output has been quiet long enough. */
  private idleCheck(): void {
    this.idleTimer = undefined;
    if (this.activity.busy()) this.idleTimer = setTimeout(() => this.idleCheck(), this.activity.untilIdle() + 10);
    // A frame only when the status line has something to change (not after every echo).
    else if (this.frames.view.status.agent !== 'agent idle') this.changed();
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
    this.screen.resize(columns, this.paneRows);
    this.agentProcess.resize(columns, this.paneRows);
    this.changed();
  }

  /**
   * What the agent left on its normal screen (see ScreenModel.lastWords), once all of its
   * output is parsed: for the user's terminal after the app leaves its own screen.
   */
  async lastWords(): Promise<string> {
    await this.screen.flush();
    return this.screen.lastWords();
  }

  /** Stops the agent (SIGHUP, then SIGKILL) and everything the session started. */
  async stop(): Promise<void> {
    this.triggers.stop();
    this.keys.stop();
    this.frames.stop();
    this.notices.stop();
    clearTimeout(this.idleTimer);
    this.hookCalls.stop();
    clearInterval(this.clock);
    await this.agentProcess.terminate();
  }

  // ---- keys --------------------------------------------------------------------------

  /** Raw bytes from the user's terminal: see KeyRouter. */
  input(chunk: Uint8Array): void {
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

  /** Writes to the agent as if typed (a key, an interrupt): what it answers within a moment is not work. */
  sendToAgent(data: string | Uint8Array): void {
    this.activity.keySent();
    // Its answer (the echo) is drawn as soon as it comes, not at a flood's pace.
    this.frames.keySent();
    if (isInterrupt(data)) this.activity.interruptSent();
    this.agentProcess.write(data);
  }

  /**
   * Starts the agent again with `args` in place of the one running, on a fresh screen, in its
   * session `resumed` (none: a new one): what the resume line names until its hooks say more.
   */
  async restartAgent(args: (userArgs: readonly string[]) => string[], resumed?: string): Promise<void> {
    const { command, cwd, env, hooks, sessionId } = this.options;
    if (!command) throw new Error('no command to start the agent again');
    this.restoreNotice.began();
    await this.agentProcess.replace(() => spawnAgent({ command, cwd, env, sessionId, agent: this.agent, hooks }, args(this.options.args ?? []), this.columns, this.paneRows).then(({ pty }) => (this.screen.write('\x1bc'), this.activity.agentStarted(), pty)));
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
    return this.agentProcess.askToLeave(this.agent.adapter.quitKey);
  }

  /** The agent's own session id, as its latest hook call gave it. */
  agentSession = (): string | undefined => this.hookCalls.agentSession;
}
