// DECCOLM (`CSI ? 3 h` / `l`, 132 or 80 columns) in a pane whose width is the user's terminal's.
// xterm, once a program allows the switch (`CSI ? 40 h`, as vttest does), clears the screen and
// homes the cursor on DECCOLM, then resizes; @xterm/headless does nothing at all unless it may
// resize itself, which the pane may not (its size follows the outer terminal). The clear and
// the home are what a program relies on (vttest draws every cursor-movement screen on the
// screen DECCOLM cleared); the width stays.
import type { Terminal } from '@xterm/headless';

/** xterm's own handlers of ED and CUP, called with the parameters a sequence would carry. Internal to xterm (version pinned). */
interface InputHandler {
  eraseInDisplay(params: { params: number[]; length: number }): boolean;
  cursorPosition(params: { params: number[]; length: number }): boolean;
}

function inputHandlerOf(term: Terminal): InputHandler | undefined {
  const handler = (term as unknown as { _core?: { _inputHandler?: Partial<InputHandler> } })._core?._inputHandler;
  return typeof handler?.eraseInDisplay === 'function' && typeof handler.cursorPosition === 'function' ? (handler as InputHandler) : undefined;
}

/**
 * Does what xterm does on DECCOLM when the switch is allowed, but the resize: erases the
 * screen (ED 2) and puts the cursor home (CUP, inside the scroll region in origin mode), at
 * once, in order with the output around it (called from the parser's handler of the mode).
 * Where xterm's handlers are missing, nothing is done (as before).
 */
export function clearForColumnMode(term: Terminal): void {
  const handler = inputHandlerOf(term);
  if (!handler) return;
  handler.eraseInDisplay({ params: [2], length: 1 });
  handler.cursorPosition({ params: [], length: 0 });
}
