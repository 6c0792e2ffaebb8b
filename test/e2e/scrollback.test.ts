// Scrolling the pane back (issue 14, item 2), end to end: the built CLI around bash in a real
// pty. What scrolled off the top is reached with Shift+PgUp and the wheel, a marker says so, a
// key for the agent brings the live screen back; a program on its alternate screen gets the keys.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRewind, type TermSession, terminalSandbox } from '../helpers/term.js';

const terminals = terminalSandbox('rewind-scroll-');

const SHIFT_PAGE_UP = '\x1b[5;2~';
const SHIFT_PAGE_DOWN = '\x1b[6;2~';
/** SGR mouse reports of one wheel notch up and down, and a click, at column 5, row 5. */
const WHEEL_UP = '\x1b[<64;5;5M';
const WHEEL_DOWN = '\x1b[<65;5;5M';
const CLICK = '\x1b[<0;5;5M\x1b[<0;5;5m';
const fullScreenFixture = path.resolve(import.meta.dirname, '../fixtures/fullScreenExit.mjs');

/** Rewind around bash (100 x 30: a pane of 29 rows) after `seq 150`. */
async function afterSeq(env: NodeJS.ProcessEnv = {}, name = 'scroll'): Promise<TermSession> {
  const session = startRewind(['--', 'bash', '--norc', '--noprofile'], { cwd: terminals.sb.repo(name), env: { ...terminals.sb.env, PS1: 'agent$ ', ...env }, cols: 100, rows: 30 });
  terminals.track(session);
  await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
  session.write('seq 150');
  session.write('\r');
  await session.waitFor((screen) => /^150\nagent\$$/m.test(screen), 10_000, 'the end of seq and the next prompt');
  return session;
}

/** Lines back, as the status line says (0: no marker, the live screen). */
function linesBack(session: TermSession): number {
  const status = session.lines().at(-1) ?? '';
  return Number(/↑ (\d+) lines? back/.exec(status)?.[1] ?? 0);
}

/** Sends `key` and waits for the status line to say another number of lines back. */
async function scrollWith(session: TermSession, key: string): Promise<number> {
  const before = linesBack(session);
  session.write(key);
  await session.waitFor(() => linesBack(session) !== before, 5_000, `the pane to scroll from ${before} lines back`);
  return linesBack(session);
}

describe('scrollback in the pane', () => {
  it('in xterm (which keeps Shift+PgUp for itself), the status line names the wheel once there is something to scroll back to', async () => {
    const session = await afterSeq({ XTERM_VERSION: 'XTerm(379)' });
    await session.waitFor(() => (session.lines().at(-1) ?? '').includes('the wheel scrolls back'), 5_000, 'the wheel named');
    expect(await scrollWith(session, WHEEL_UP)).toBe(3);
    expect(session.lines().at(-1)).toContain('the wheel scrolls · a key returns to live');
    const elsewhere = await afterSeq({}, 'not-xterm');
    expect(elsewhere.lines().at(-1)).not.toContain('wheel');
  });

  it('Shift+PgUp reaches the first of 150 scrolled-off lines, Shift+PgDn comes back to the live screen', async () => {
    const session = await afterSeq();
    expect(linesBack(session)).toBe(0);
    const seen: number[] = [];
    while (!session.lines().includes('1')) {
      seen.push(await scrollWith(session, SHIFT_PAGE_UP));
      expect(seen.length).toBeLessThan(10);
    }
    // A page at a time (the pane's 29 rows, one kept), up to the command that printed them.
    expect(seen[0]).toBe(28);
    expect(session.lines()[0]).toBe('agent$ seq 150');
    expect(session.lines()[1]).toBe('1');
    expect(session.lines().at(-1)).toMatch(/^ ◈ rewind {2}↑ \d+ lines back {2}.*Shift\+PgUp\/PgDn scroll · a key returns to live $/);
    while (linesBack(session) > 0) await scrollWith(session, SHIFT_PAGE_DOWN);
    expect(session.lines().slice(-3, -1)).toEqual(['150', 'agent$']);
    expect(session.lines().at(-1)).toMatch(/Esc Esc rewind/);
  });

  it('the wheel scrolls three lines a notch while Rewind has the mouse; a key goes to the agent on the live screen', async () => {
    const session = await afterSeq();
    // Output above the screen and no mouse of the agent's: Rewind asks for mouse reports.
    await session.waitFor(() => session.output().includes('\x1b[?1000h') && session.output().includes('\x1b[?1006h'), 5_000, 'mouse reports on');
    expect(await scrollWith(session, WHEEL_UP)).toBe(3);
    expect(await scrollWith(session, WHEEL_UP)).toBe(6);
    expect(await scrollWith(session, WHEEL_DOWN)).toBe(3);
    // Live, the pane's 29 rows end with 150 and the prompt: its top row is 123.
    expect(session.lines()[0]).toBe(String(123 - 3));
    // A click is nobody's: the agent never asked for the mouse.
    session.write(CLICK);
    session.write('x');
    await session.waitFor(() => linesBack(session) === 0, 5_000, 'the live screen');
    await session.waitFor((screen) => /^agent\$ x$/m.test(screen), 5_000, 'the key at the prompt');
    expect(session.lines().slice(-3, -1)).toEqual(['150', 'agent$ x']);
  });

  it('a program on its alternate screen gets Shift+PgUp, and Rewind gives the mouse back while it runs', async () => {
    const session = await afterSeq();
    await session.waitFor(() => session.output().includes('\x1b[?1000h'), 5_000, 'mouse reports on');
    session.write(`${JSON.stringify(process.execPath)} ${JSON.stringify(fullScreenFixture)}`);
    session.write('\r');
    await session.waitFor(/full screen ready/, 10_000, 'the full-screen program');
    const mouseOn = session.output().lastIndexOf('\x1b[?1000h');
    await session.waitFor(() => session.output().lastIndexOf('\x1b[?1000l') > mouseOn, 5_000, 'mouse reports off');
    session.write(SHIFT_PAGE_UP);
    await session.waitFor(/keys: 1b5b353b327e/, 5_000, 'Shift+PgUp reaching the program');
    expect(linesBack(session)).toBe(0);
    session.write('q');
    await session.waitFor(/To continue this session, run fixture resume 0f3a\nagent\$$/m, 10_000, 'its last words and the prompt');
    // Back on the normal screen with output above it: the wheel scrolls the pane again.
    await session.waitFor(() => session.output().lastIndexOf('\x1b[?1000h') > mouseOn, 5_000, 'mouse reports on again');
    expect(await scrollWith(session, WHEEL_UP)).toBe(3);
  });
});
