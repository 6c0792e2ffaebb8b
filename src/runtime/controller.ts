import fs from 'node:fs';
import path from 'node:path';
import type { AppView, OverlayView } from '../app/view.js';
import type { RewindConfig } from '../config/schema.js';
import { messageOf } from '../shared/errors.js';
import type { PtySession, PtyExit } from '../pty/ptySession.js';
import { ScreenModel } from '../pty/screen.js';
import { parseCommandKey } from '../pty/keys.js';
import { oneLine } from '../shared/format.js';
import { mirrorModesSequence, windowTitleSequence, type InputModes } from '../pty/terminalModes.js';
import { ActivityTracker } from './activity.js';
import type { CheckpointAvailability } from './checkpointer.js';
import { Checkpointer } from './checkpointer.js';
import { checkpointStatus, samePane, sameView } from './viewParts.js';
import type { PaneFrame } from '../app/screenWriter.js';
import { paneHeightOf } from '../app/paneSize.js';
import { ChangeWatcher } from './watcher.js';
import { commandKeyLabel, runAppCommand } from './appCommands.js';
import { KeyRouter } from './keyRouter.js';
import { commandHint } from './commandLine.js';
import { EnterLabels } from './enterLabel.js';
import { openPicker, type PickerModel } from './pickerFlow.js';
import { changeLabel } from './changeLabel.js';
import type { SnapshotOptions } from '../checkpoints/checkpoints.js';

export interface SessionOptions {
  /** The agent, started in a pty sized to the pane (see paneHeightOf). */
  pty: PtySession;
  /** This session's id (newSessionId): the agent has it as REWIND_SESSION. */
  sessionId: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: RewindConfig;
  /** What is wrong in config.json (each key's default stands in): said once the agent shows. */
  configProblems?: readonly string[];
  /** Known at once, or attached later (the agent starts first). */
  checkpoints?: CheckpointAvailability;
  columns: number;
  rows: number;
  /** Where mode changes for the outer terminal are written (the real stdout). */
  writeOuter: (data: string) => void;
}

/** What is open over the pane (the command bar is the keys' own: see KeyRouter). */
type Mode = { kind: 'pane' } | { kind: 'overlay'; overlay: OverlayView } | { kind: 'picker'; model: PickerModel };

/**
 * Frame pacing: the first change after a quiet spell is drawn almost at once (typing feels
 * direct), while a flood of output is drawn about 15 times a second: drawing a frame costs
 * the same whatever scrolled past in between, and nothing the child wrote is lost (the
 * emulated screen has it all).
 */
const quickFrameMs = 8;
const floodFrameMs = 66;
const noticeMs = 6_000;

/**
 * One agent session: the child in a pty, its emulated screen, the keys, the checkpoint
 * triggers (Enter, file changes settling, commands) and what the app draws. No Ink here:
 * the UI subscribes to `view()`.
 */
export class SessionController {
  private readonly pty: PtySession;
  private screen: ScreenModel;
  private readonly keys: KeyRouter;
  private readonly activity = new ActivityTracker();
  private readonly listeners = new Set<() => void>();
  private readonly paneListeners = new Set<(frame: PaneFrame) => void>();
  private paneNow: PaneFrame | undefined;
  private checkpointer: Checkpointer | undefined;
  private availability: CheckpointAvailability | undefined;
  private attached!: () => void;
  /** Settles once checkpoints are open (or known to be off). */
  private readonly checkpointsReady = new Promise<void>((resolve) => (this.attached = resolve));
  private watcher: ChangeWatcher | undefined;
  private watcherStarting: Promise<void> | undefined;
  private stopped = false;
  private mode: Mode = { kind: 'pane' };
  private current: AppView;
  private frame: NodeJS.Timeout | undefined;
  private lastFrame = 0;
  private clock: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private mirrored: InputModes | undefined;
  private notice: { text: string; tone: 'info' | 'warning' | 'error'; until: number } | undefined;
  private noticeTimer: NodeJS.Timeout | undefined;
  private columns: number;
  private rows: number;
  private readonly enterLabels: EnterLabels;
  /** Why the file watcher is off, while it is. */
  private watcherOffReason: string | undefined;
  /** Problems met opening checkpoints or starting the triggers, for /checkpoints. */
  private readonly problemList: string[] = [];
  private quitting = false;
  /** Settles with the agent's exit, once all its output was handed on. */
  get exited(): Promise<PtyExit> {
    return this.pty.exited;
  }
  /** This session's id: on its checkpoints, and REWIND_SESSION for the agent (its hooks). */
  readonly sessionId: string;

  constructor(private readonly options: SessionOptions) {
    this.columns = options.columns;
    this.rows = options.rows;
    this.sessionId = options.sessionId;
    this.pty = options.pty;
    // No scrollback: the pane shows the agent's screen, nothing above it.
    this.screen = new ScreenModel(this.columns, this.paneRows, 0);
    this.enterLabels = new EnterLabels(this.screen, this.activity);
    this.keys = new KeyRouter(
      {
        layer: () => this.mode.kind,
        toAgent: (bytes) => this.sendToAgent(bytes),
        lineStarted: () => this.enterLabels.lineStarted(),
        beforeEnter: (typed) => this.checkpointBeforeEnter(typed),
        openPicker: () => openPicker(this),
        runCommand: (line) => runAppCommand(this, 'line', line),
        closeOverlay: () => this.closeOverlay(),
        changed: () => this.changed(),
      },
      { commandKey: parseCommandKey(options.config.command_key), doubleEscMs: options.config.double_esc_ms },
    );
    if (options.checkpoints) this.attachCheckpoints(options.checkpoints);
    this.current = this.buildView();
    for (const problem of options.configProblems ?? []) this.problem(problem);
  }

  private get paneRows(): number {
    return paneHeightOf(this.rows);
  }

  // ---- the view ----------------------------------------------------------------------

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  view = (): AppView => this.current;

  /**
   * Calls `listener` with each new frame of the agent's pane (at the frame pace, only when
   * it changed). The pane is not part of the view: a flood of output never re-renders it.
   */
  onPaneFrame = (listener: (frame: PaneFrame) => void): (() => void) => {
    this.paneListeners.add(listener);
    if (this.paneNow) listener(this.paneNow);
    return () => this.paneListeners.delete(listener);
  };

  private changed(): void {
    if (this.frame) return;
    const sinceLast = Date.now() - this.lastFrame;
    const delay = sinceLast > floodFrameMs * 2 ? quickFrameMs : Math.max(quickFrameMs, floodFrameMs - sinceLast);
    this.frame = setTimeout(() => this.drawFrame(), delay);
  }

  private drawFrame(): void {
    this.frame = undefined;
    this.lastFrame = Date.now();
    const pane = this.pane();
    const next = this.buildView(pane);
    const modes = this.screen.modes();
    const mirror = mirrorModesSequence(this.mirrored, modes);
    this.mirrored = modes;
    if (mirror) this.options.writeOuter(mirror);
    // The view first: after a resize, the new layout before the rows drawn in it.
    if (!sameView(this.current, next)) {
      this.current = next;
      for (const listener of this.listeners) listener();
    }
    if (!samePane(this.paneNow, pane)) {
      this.paneNow = pane;
      for (const listener of this.paneListeners) listener(pane);
    }
  }

  private pane(): PaneFrame {
    return { rows: this.screen.rows(), cursor: this.screen.cursor() };
  }

  private statusText(): { checkpoints: string; checkpointsOff: boolean; off?: string } {
    const status = checkpointStatus(this.availability, this.checkpointer?.summary);
    // A trigger that is off says so for as long as it is, not only in a notice that fades.
    return this.watcherOffReason !== undefined && this.availability?.on ? { ...status, off: 'watcher off' } : status;
  }

  private buildView(pane = this.pane()): AppView {
    const notice = this.notice && this.notice.until > Date.now() ? { text: this.notice.text, tone: this.notice.tone } : undefined;
    return {
      columns: this.columns,
      rows: this.rows,
      pane: this.mode.kind === 'overlay' ? pane : undefined,
      status: {
        ...this.statusText(),
        agent: this.activity.busy() ? 'agent busy' : 'agent idle',
        keys: `Esc Esc rewind · ${commandKeyLabel(this.options.config.command_key)} commands`,
        notice,
      },
      commandBar: this.keys.commandBar && { ...this.keys.commandBar, hint: commandHint(this.keys.commandBar.text) },
      overlay: this.mode.kind === 'overlay' ? this.mode.overlay : undefined,
      picker: this.mode.kind === 'picker' ? { ...this.mode.model, agentBusy: this.activity.busy(), keys: this.keys.pickerKeys } : undefined,
    };
  }

  /** A one-line notice in the status line that fades after a few seconds. */
  say(text: string, tone: 'info' | 'warning' | 'error' = 'info'): void {
    // One row: a git error's line breaks written raw would break the screen.
    this.notice = { text: oneLine(text), tone, until: Date.now() + noticeMs };
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.changed(), noticeMs + 10);
    this.changed();
  }

  /** Takes back a notice that no longer holds (if it is still the one shown). */
  private unsay(text: string): void {
    if (this.notice?.text !== oneLine(text)) return;
    this.notice = undefined;
    this.changed();
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

  /** Starts showing the agent (its output so far first) and reading its keys. */
  start(): void {
    // The terminal may have been resized since the agent was started.
    this.pty.resize(this.columns, this.paneRows);
    this.screen.onResponse((answer) => this.pty.write(answer));
    // An agent's "done" bell reaches the user's terminal.
    this.screen.onBell(() => this.options.writeOuter('\x07'));
    // And its window title (Claude Code and others name the task there).
    this.screen.onTitle((title) => this.options.writeOuter(windowTitleSequence(title)));
    // Per piece of output (thousands a second in a flood) only what must be: no timer is
    // re-armed and no callback queued per piece.
    this.screen.onParsed(() => this.changed());
    this.pty.onData((data) => {
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
    else this.changed();
  }

  /** Checkpoints for this session, once opened (the agent does not wait for them). */
  attachCheckpoints(availability: CheckpointAvailability): void {
    this.availability = availability;
    if (availability.problems && availability.problems.length > 0) this.problem(availability.problems.join(' · '));
    const engine = availability.engine;
    this.checkpointer = engine ? new Checkpointer(engine, () => this.changed()) : undefined;
    if (this.checkpointer && availability.on && !this.watcherStarting) this.startWatcher(this.checkpointer);
    else this.attached();
    this.changed();
  }

  /** A problem the user must hear of: a notice now, and listed in /checkpoints. */
  private problem(text: string): void {
    this.problemList.push(oneLine(text));
    this.say(text, 'warning');
  }

  /** The watcher stopped (or never started): said once, and "watcher off" in the status line from now on. */
  private watcherOff(error: unknown): void {
    if (this.watcherOffReason !== undefined || this.stopped) return;
    this.watcherOffReason = messageOf(error);
    this.watcher?.close();
    this.problem(`file watcher off: checkpoints still come before each Enter (${this.watcherOffReason})`);
  }

  private startWatcher(checkpointer: Checkpointer): void {
    const off = (error: unknown) => this.watcherOff(error);
    // A checkpoint of the files as the session starts (if they changed since the newest
    // one): "before the agent did anything" is the restore most often wanted. Keys wait
    // for it; the watcher then watches the folders it holds (without them it would watch
    // only the top folder: it is off then, and says so).
    this.watcherStarting = this.checkpoint({ trigger: 'start', label: 'session start' })
      .finally(() => this.attached())
      .then(() => checkpointer.folders())
      .then((folders) => {
        if (this.stopped) return;
        this.watcher = new ChangeWatcher(checkpointer.engine.project.root, {
          folders,
          ignored: (paths) => checkpointer.ignored(paths),
          ignoreDirs: [checkpointer.engine.store.root],
          onSettled: (paths) => void this.filesSettled(checkpointer, paths),
          onError: off,
          onFull: (message) => this.say(message, 'warning'),
        });
        if (this.watcherOffReason !== undefined) this.watcher.close();
      })
      .catch(off);
  }

  private async filesSettled(checkpointer: Checkpointer, paths: string[]): Promise<void> {
    // Named from what the step changed (the tree diff), not from the burst's events: a burst
    // is full of temporary files that came and went, and must not hide its biggest part.
    const root = checkpointer.engine.project.root;
    const present = paths.filter((file) => fs.existsSync(path.join(root, file)));
    await this.checkpoint({ trigger: 'watch', label: 'files changed', describe: (changes) => changeLabel(changes, present.length > 0 ? present : paths) }, checkpointer);
  }

  /** Takes a checkpoint; a failure is a notice, never the end of the session. */
  async checkpoint(options: { trigger: string; label: string; describe?: SnapshotOptions['describe'] }, checkpointer = this.checkpointer): Promise<void> {
    if (!checkpointer || !this.availability?.on) return;
    try {
      // Enter and settled bursts add no entry when nothing changed since the newest one.
      const record = await checkpointer.snapshot({ ...options, session: this.sessionId, agent: 'generic', onlyIfChanged: options.trigger !== 'manual' });
      if (options.trigger === 'manual') this.say(`checkpoint #${record.id}${record.deduped ? ' (no change since the previous one)' : ''}`);
    } catch (error) {
      this.say(`checkpoint failed: ${messageOf(error)}`, 'error');
    }
  }

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.screen.resize(columns, this.paneRows);
    this.pty.resize(columns, this.paneRows);
    this.changed();
  }

  /** Stops the agent (SIGHUP, then SIGKILL) and everything the session started. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    this.keys.stop();
    clearTimeout(this.frame);
    clearTimeout(this.idleTimer);
    clearTimeout(this.noticeTimer);
    clearInterval(this.clock);
    await this.pty.terminate();
  }

  // ---- keys --------------------------------------------------------------------------

  /** Raw bytes from the user's terminal: see KeyRouter. */
  input(chunk: Uint8Array): void {
    this.keys.input(chunk);
  }

  /**
   * Before an Enter reaches the agent: a checkpoint. The very first Enter may come while
   * checkpoints are still opening: it waits, and says so if that takes a moment (a big
   * project's first checkpoint).
   */
  private async checkpointBeforeEnter(typed: string): Promise<void> {
    // The line as the screen shows it (history recalled, edits in the middle): see enterLabel.
    const label = await this.enterLabels.atEnter(typed);
    const waiting = "taking this session's first checkpoint before sending Enter…";
    const slow = setTimeout(() => this.say(waiting), 150);
    await this.checkpointsReady;
    clearTimeout(slow);
    await this.checkpoint({ trigger: 'enter', label: label || '(Enter)' });
    // Done: the status line shows the checkpoints again, not 6 s of a wait that is over.
    this.unsay(waiting);
  }

  // ---- for commands ------------------------------------------------------------------

  get checkpoints(): Checkpointer | undefined {
    return this.checkpointer;
  }

  /** Resolves once checkpoints are open, with the session's first one taken (or known off). */
  checkpointsOpened(): Promise<void> {
    return this.checkpointsReady;
  }

  /**
   * Why new checkpoints are not taken ('still opening' until they are open), while earlier
   * ones may still be restored; undefined when they are taken.
   */
  get checkpointsOffReason(): string | undefined {
    return this.availability === undefined ? 'still opening' : this.availability.on ? undefined : this.availability.reason;
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
    this.pty.write(data);
  }

  /** Resolves once the agent's output has been quiet for a while, or after `deadlineMs`. */
  async waitForIdle(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (this.activity.busy() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.activity.untilIdle() + 5, deadline - Date.now())));
    }
  }

  /**
   * Runs a restore with the watcher paused, so its own writes are not taken for edits: it
   * resumes once their file events, which may come after the restore is done, are dropped.
   */
  async whileRestoring<T>(work: () => Promise<T>): Promise<T> {
    // A watcher still starting (Esc Esc right after start) would see the restore's writes:
    // it starts first, then pauses.
    await this.watcherStarting;
    const resume = this.watcher?.pause();
    try {
      return await work();
    } finally {
      await resume?.();
    }
  }

  /** Problems met opening checkpoints or starting the triggers (each also said once as a notice). */
  get problems(): readonly string[] {
    return this.problemList;
  }

  /** The user asked to leave (/quit): rewind exits 0, whatever the agent's end. */
  get quitRequested(): boolean {
    return this.quitting;
  }

  quit(): void {
    this.quitting = true;
    void this.stop();
  }
}
