// The kitty keyboard protocol and modifyOtherKeys through Rewind (issue 30): what the agent
// asks of its terminal's keyboard reaches the outer terminal when that one speaks it, the
// agent's `CSI ? u` is answered as that terminal would, Rewind's own keys (Esc Esc, the command
// key) still work when they come encoded, the terminal reads Rewind's picker and command bar
// in legacy keys, and it is left in legacy keys when Rewind exits.
import { describe, expect, it } from 'vitest';
import { termSandbox } from '../helpers/termSandbox.js';
import { OuterKeyboard } from '../helpers/outerKeyboard.js';
import { waitFor } from '../helpers/waitFor.js';

const terminals = termSandbox('rewind-keyboard-');

/** An agent that pushes kitty flags 1, sets modifyOtherKeys 2 and asks for the flags; `cat -v` then shows what reaches it (ESC as ^[). */
const agent = ['--', 'sh', '-c', "stty raw -echo; printf '\\033[>1u\\033[>4;2m\\033[?u'; printf 'ready\\r\\n'; exec cat -v"];

/** The rows of the agent's pane (all but the status row), as one string. */
const paneText = (lines: string[]) => lines.slice(0, -1).join('\n');

describe('the keyboard modes of an agent, in a terminal with the kitty keyboard protocol', () => {
  it('reach the terminal, are answered, are put aside while Rewind reads keys, and are taken back at exit', async () => {
    const sb = terminals.sandbox();
    const keyboard = new OuterKeyboard({ kitty: true, modifyOtherKeys: true, version: 'kitty(0.35.2)' });
    const session = terminals.start(agent, { cwd: sb.repo('kitty'), env: sb.env, cols: 90, rows: 16, keyboard });
    await session.waitFor(/ready/, 15_000, 'the agent ready');
    // The agent's question is answered with the flags it pushed, as kitty would.
    await session.waitFor((screen) => paneText(screen.split('\n')).includes('^[[?1u'), 10_000, "the answer to the agent's CSI ? u");
    await waitFor(() => keyboard.flags === 1 && keyboard.modifyOtherKeys === 2, 10_000, 'the flags and modifyOtherKeys mirrored to the terminal');

    // Shift+Enter reaches the agent as the terminal sent it.
    session.write(keyboard.encode('shift+enter'));
    await session.waitFor(/\^\[\[13;2u/, 5_000, 'Shift+Enter at the agent');

    // Esc Esc, each Esc as `CSI 27 u`: the picker opens, and the terminal is told legacy keys while it is open.
    expect(keyboard.encode('esc')).toBe('\x1b[27u');
    session.write(keyboard.encode('esc'));
    session.write(keyboard.encode('esc'));
    await session.waitFor(/rewind to a checkpoint/, 10_000, 'the picker');
    await waitFor(() => keyboard.legacy, 5_000, 'legacy keys while the picker is open');
    session.write(keyboard.encode('esc'));
    await session.waitFor((screen) => !screen.includes('rewind to a checkpoint'), 10_000, 'the picker closed');
    await waitFor(() => keyboard.flags === 1 && keyboard.modifyOtherKeys === 2, 5_000, "the agent's modes back once the pane has the keys");
    // A shell gets the first Esc at once (README, Keys), as the terminal sent it; the second opened the picker.
    expect(session.text().split('^[[27u').length - 1, 'the first Esc at the agent, as sent').toBe(1);

    // The command key as `CSI 93 ; 5 u`: the command bar opens; /quit leaves.
    expect(keyboard.encode('ctrl+]')).toBe('\x1b[93;5u');
    session.write(keyboard.encode('ctrl+]'));
    await session.waitFor(/\/checkpoint/, 10_000, 'the command bar');
    await waitFor(() => keyboard.legacy, 5_000, 'legacy keys while the command bar is open');
    session.write('/quit');
    session.write(keyboard.encode('enter'));
    expect((await session.exited).exitCode).toBe(0);
    expect(keyboard.legacy, 'the terminal is left with legacy keys').toBe(true);
  });

  it("taken back when the agent exits: Rewind's entry on the terminal's stack is popped on the screen it was pushed on", async () => {
    const sb = terminals.sandbox();
    const keyboard = new OuterKeyboard({ kitty: true, modifyOtherKeys: true });
    const once = ['--', 'sh', '-c', "stty raw -echo; printf '\\033[>3u\\033[>4;1mready\\r\\n'; head -c 1 >/dev/null"];
    const session = terminals.start(once, { cwd: sb.repo('exit'), env: sb.env, cols: 90, rows: 16, keyboard });
    await session.waitFor(/ready/, 15_000, 'the agent ready');
    await waitFor(() => keyboard.flags === 3 && keyboard.modifyOtherKeys === 1, 10_000, 'the modes mirrored');
    session.write('x');
    await session.exited;
    expect(keyboard.legacy, 'the terminal is left with legacy keys').toBe(true);
    const output = session.output();
    expect(output.lastIndexOf('\x1b[<u'), 'the pop before leaving the alternate screen').toBeLessThan(output.lastIndexOf('\x1b[?1049l'));
  });
});

describe('in a terminal without the kitty keyboard protocol', () => {
  it("the agent's CSI ? u goes unanswered, as there, and no flags are written to the terminal", async () => {
    const sb = terminals.sandbox();
    const keyboard = new OuterKeyboard({ kitty: false, modifyOtherKeys: true });
    const session = terminals.start(agent, { cwd: sb.repo('legacy'), env: sb.env, cols: 90, rows: 16, keyboard });
    await session.waitFor(/ready/, 15_000, 'the agent ready');
    await waitFor(() => keyboard.modifyOtherKeys === 2, 10_000, 'modifyOtherKeys mirrored (a terminal that ignores it is as bare)');
    session.write('x');
    await session.waitFor(/^ready\nx/m, 5_000, 'a key after it');
    expect(session.text()).not.toContain('^[[?');
    // eslint-disable-next-line no-control-regex -- a kitty push, pop or set starts with ESC
    expect(session.output()).not.toMatch(/\x1b\[[<>=]\d*u/);
  });
});
