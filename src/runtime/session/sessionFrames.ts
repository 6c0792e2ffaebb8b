import type { AppView, PaneFrame } from '../../app/view.js';
import { mirrorModesSequence, type InputModes } from '../../pty/terminalModes.js';
import { FramePacer } from './framePacer.js';
import { samePane, sameView } from './viewParts.js';

/** What a frame is drawn from: the view and the pane as they are now, and the input modes the outer terminal must mirror. */
export interface FrameSource {
  pane(): PaneFrame;
  view(pane: PaneFrame): AppView;
  outerModes(): InputModes;
  writeOuter(data: string): void;
  /** The agent's synchronized update in progress, if any (see ScreenModel.synchronizedUpdate). */
  synchronizedUpdate(): number | undefined;
}

/**
 * How long an agent's synchronized update may hold a frame back: long enough for any update
 * an agent writes at once to arrive whole on a busy machine, short enough that an update
 * never ended (an agent killed half-way) barely shows (terminals take 150 ms to 1 s).
 */
export const SYNCHRONIZED_UPDATE_MS = 500;

/**
 * The session's frames, at the frame pace (FramePacer), never from the middle of the agent's
 * synchronized update (within SYNCHRONIZED_UPDATE_MS): each one mirrors the agent's input
 * modes to the outer terminal, then hands on the view and the pane, each only when it changed.
 * The pane is not part of the view: a flood of output never re-renders it.
 */
export class SessionFrames {
  private readonly pacer: FramePacer;
  private readonly listeners = new Set<() => void>();
  private readonly paneListeners = new Set<(frame: PaneFrame) => void>();
  private paneNow: PaneFrame | undefined;
  private mirrored: InputModes | undefined;
  private current: AppView | undefined;

  /** Nothing is read from `source` until the first frame or the first look at the view. */
  constructor(private readonly source: FrameSource) {
    this.pacer = new FramePacer(() => this.draw(), undefined, undefined, undefined, undefined, {
      update: () => this.source.synchronizedUpdate(),
      ms: SYNCHRONIZED_UPDATE_MS,
    });
  }

  /** The view as last drawn. */
  get view(): AppView {
    this.current ??= this.source.view(this.source.pane());
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` with each new frame of the agent's pane (the current one first, if any). */
  onPane(listener: (frame: PaneFrame) => void): () => void {
    this.paneListeners.add(listener);
    if (this.paneNow) listener(this.paneNow);
    return () => this.paneListeners.delete(listener);
  }

  /** Something changed: a frame, at the pace. */
  request(): void {
    this.pacer.request();
  }

  /** A key went to the agent: its answer is drawn at once (FramePacer.keySent). */
  keySent(): void {
    this.pacer.keySent();
  }

  stop(): void {
    this.pacer.stop();
  }

  /** The sequence that takes back the keyboard modes mirrored so far (kitty flags, modifyOtherKeys), as if none had been: '' if none were. */
  releaseKeyboard(): string {
    if (!this.mirrored) return '';
    const released = { ...this.mirrored, kittyFlags: 0, modifyOtherKeys: undefined };
    const out = mirrorModesSequence(this.mirrored, released);
    this.mirrored = released;
    return out;
  }

  private draw(): void {
    const pane = this.source.pane();
    const next = this.source.view(pane);
    const modes = this.source.outerModes();
    const mirror = mirrorModesSequence(this.mirrored, modes);
    this.mirrored = modes;
    if (mirror) this.source.writeOuter(mirror);
    // The view first: after a resize, the new layout before the rows drawn in it.
    if (this.current === undefined || !sameView(this.current, next)) {
      this.current = next;
      for (const listener of this.listeners) listener();
    }
    if (!samePane(this.paneNow, pane)) {
      this.paneNow = pane;
      for (const listener of this.paneListeners) listener(pane);
    }
  }
}
