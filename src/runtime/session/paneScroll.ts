import type { ScreenModel, ScreenModes } from '../../pty/screen.js';
import { scrollPieces, type ScrollPiece } from '../../pty/scrollKeys.js';
import type { InputModes } from '../../pty/terminalModes.js';

/** What the pane's scrolling needs from the session. */
export interface PaneScrollHost {
  screen(): ScreenModel;
  /** Rows of the agent's pane (a page). */
  paneRows(): number;
  /** Whether the pane is what the user sees (no picker or panel over it). */
  paneShown(): boolean;
  /** The view changed. */
  changed(): void;
}

/**
 * Scrolling the agent's pane back through the emulator's scrollback: Shift+PgUp / Shift+PgDn,
 * and the mouse wheel while Rewind takes the mouse. Rewind asks the user's terminal for mouse
 * reports only while all of these hold, since they stop plain click-and-drag text selection
 * (Shift+drag still selects in most terminals): `mouse_wheel_scroll` is on, the pane is shown,
 * the agent is on its normal screen and asked for no mouse reports of its own, and there is
 * something above the screen to scroll back to. An agent on its alternate screen gets every
 * key and its own mouse reports: it scrolls itself.
 */
export class PaneScroll {
  private mouseOurs = false;

  constructor(
    private readonly host: PaneScrollHost,
    private readonly wheel: boolean,
  ) {}

  /** The input modes the user's terminal should have: the agent's, plus mouse reports for the wheel when Rewind takes them. */
  outerModes(modes: ScreenModes): InputModes {
    this.mouseOurs = this.wheel && this.host.paneShown() && !modes.alternateScreen && modes.mouseTracking === 'none' && this.host.screen().hasScrollback();
    return this.mouseOurs ? { ...modes, mouseTracking: 'vt200', sgrMouse: true } : modes;
  }

  /** Whether the wheel scrolls the pane now (Rewind has the terminal's mouse reports). */
  get wheelScrolls(): boolean {
    return this.mouseOurs;
  }

  /**
   * Typed bytes (a binary string) split into scrolls and bytes for the agent; undefined when
   * none of it scrolls (the agent is on its alternate screen, or nothing there is a scroll key).
   */
  pieces(input: string): ScrollPiece[] | undefined {
    if (this.host.screen().modes().alternateScreen) return undefined;
    const pieces = scrollPieces(input, this.mouseOurs);
    return pieces.length === 1 && 'pass' in (pieces[0] as ScrollPiece) ? undefined : pieces;
  }

  /** Applies a scroll (a page, some lines); other mouse events do nothing. */
  scroll(piece: Exclude<ScrollPiece, { pass: string }>): void {
    if (!('scroll' in piece)) return;
    const page = Math.max(1, this.host.paneRows() - 1);
    const lines = piece.scroll === 'lines' ? piece.lines : piece.scroll === 'pageUp' ? -page : page;
    if (this.host.screen().scroll(lines)) this.host.changed();
  }

  /** Back to the live screen (a key is about to reach the agent). */
  toLive(): void {
    if (this.host.screen().scrollToLive()) this.host.changed();
  }

  /** Lines scrolled back (0: live). */
  get back(): number {
    return this.host.screen().scrolledBack();
  }
}
