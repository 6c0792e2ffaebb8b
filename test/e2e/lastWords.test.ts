// The agent's last words at exit (issue 14, item 1): what it left on its normal screen is on
// the user's terminal after Rewind exits, exactly as after a bare run of the same program.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startInPty, startRewind, type TermSession, terminalSandbox } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';

const terminals = terminalSandbox('rewind-last-words-');

const fixture = path.resolve(import.meta.dirname, '../fixtures/fullScreenExit.mjs');
const size = { cols: 60, rows: 14 };

/** `args` run bare (`command` in the pty) or inside Rewind (`rewind -- command …`). */
function run(inRewind: boolean, command: string, args: string[], env: NodeJS.ProcessEnv = {}): TermSession {
  const options = { cwd: terminals.sb.repo(`p${terminals.started}`), env: { ...terminals.sb.env, ...env }, ...size };
  const session = inRewind ? startRewind(['--', command, ...args], options) : startInPty(command, args, options);
  terminals.track(session);
  return session;
}

/**
 * The screen once the program has exited and its screen ends with `last` (the exit can come
 * before the emulator has parsed the last output), and the colour of `text` on it.
 */
async function endScreen(session: TermSession, inRewind: boolean, text: string, last: RegExp): Promise<{ lines: string[]; color: number | undefined }> {
  const exit = await session.exited;
  expect(exit.exitCode).toBe(0);
  // In Rewind, its own screen (the pane and the status row) must be gone too: until then `last` may match the pane.
  const ended = () => last.test(session.text()) && !(inRewind && session.text().includes('◈ rewind'));
  await waitFor(ended, 5_000, `the screen to end with ${String(last)}`).catch((error: unknown) => {
    throw new Error(`${String(error)} (${inRewind ? 'in Rewind' : 'bare'}); screen:\n${session.text()}`, { cause: error });
  });
  return { lines: session.lines(), color: session.colorOf(text) };
}

describe("the agent's last words", () => {
  it('a full-screen agent: what it printed after leaving its alternate screen, from its last clear, in colour, as bare', async () => {
    const screens = [];
    for (const inRewind of [false, true]) {
      const session = run(inRewind, process.execPath, [fixture, 'clear_first']);
      await session.waitFor(/full screen ready/, 15_000, 'the full screen');
      session.write('q');
      screens.push(await endScreen(session, inRewind, 'fixture resume', /fixture resume 0f3a\n*$/));
    }
    const [bare, rewind] = screens;
    expect(bare?.lines.join('\n')).toMatch(/^starting the agent\na long line x+\nx+\nx+\nx+ end\nTo continue this session, run fixture resume 0f3a\n/);
    expect(bare?.color).toBe(2);
    expect(rewind).toEqual(bare);
  });

  it('a shell: its output, scrollback included, and the prompt it ended on', async () => {
    const screens = [];
    for (const inRewind of [false, true]) {
      const session = run(inRewind, 'bash', ['--norc', '--noprofile'], { PS1: 'agent$ ' });
      await session.waitFor(/agent\$/, 15_000, 'the prompt');
      session.write("seq 30; printf '\\033[31mred\\033[0m\\n'");
      session.write('\r');
      // The prompt again before typing: typed while the command runs, the line would be echoed twice (by the tty, then readline).
      await session.waitFor(/^red\nagent\$ ?$/m, 10_000, 'the output and the prompt after it');
      // The shell's last output, and its exit only once that is on the screen (a pty may lose
      // what a program writes right as it exits, the bare run as much as Rewind's): it waits for a line.
      session.write("printf 'bye\\n'; read -r _; exec true");
      session.write('\r');
      await session.waitFor(/^bye$/m, 10_000, 'the last output');
      session.write('\r');
      screens.push(await endScreen(session, inRewind, 'red', /^bye\n*$/m));
    }
    const [bare, rewind] = screens;
    expect(bare?.lines.slice(-5)).toEqual(['red', "agent$ printf 'bye\\n'; read -r _; exec true", 'bye', '', '']);
    expect(bare?.color).toBe(1);
    expect(rewind).toEqual(bare);
  });
});
