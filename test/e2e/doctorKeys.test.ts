// `rewind doctor` asks the terminal which keys it can tell apart, in a real pty read by
// @xterm/headless (the built CLI; CI left out of its environment, as in a user's terminal).
// xterm.js answers DA1 but not the kitty keyboard query; a terminal that also answers that
// one speaks the kitty protocol; a terminal that answers nothing makes doctor give up at its
// deadline instead of hanging. The probe puts the terminal's mode back before it returns
// (test/fixtures/askTerminal.mjs looks while the process still runs: Node resets the mode at
// exit by itself), and doctor leaves it as it found it (`stty -g` in the same pty).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/restoreKit.js';
import { cliPath, requireBuiltCli, startInPty, type PtyOptions } from '../helpers/term.js';
import { createSandbox, withAgentHomes, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-doctor-keys-');
});
afterEach(() => sb.cleanup());

/** No agent on PATH: doctor would ask each for its version (seconds), which is not what is tested here. */
const withoutAgents = () => ({ ...withAgentHomes(sb), PATH: [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':') });

/** The keys line of doctor's report on `lines` (and its fix, if any). */
function keysLines(lines: readonly string[]): string[] {
  const at = lines.findIndex((line) => /^[✓!✗] keys /.test(line));
  return at < 0 ? [] : [lines[at] ?? '', ...(lines[at + 1]?.trimStart().startsWith('→') ? [lines[at + 1]?.trim() ?? ''] : [])];
}

/** `rewind doctor` in a pty whose terminal answers as `terminal` says: its keys line (and what to do), and the pty's modes before and after. */
async function doctorIn(terminal: Pick<PtyOptions, 'answers' | 'replies'>): Promise<{ keys: string[]; before: string; after: string }> {
  requireBuiltCli();
  const root = sb.repo('keys');
  const [before, after] = [path.join(sb.base, 'stty-before'), path.join(sb.base, 'stty-after')];
  const script = 'stty -g > "$1"; "$3" "$4" doctor; stty -g > "$2"';
  const session = startInPty('sh', ['-c', script, 'sh', before, after, process.execPath, cliPath], { cwd: root, env: withoutAgents(), cols: 240, rows: 60, ...terminal }, 'rewind doctor');
  try {
    await session.waitFor(/\d+ passed, \d+ warned, \d+ failed/, 30_000, "doctor's summary");
    await session.exited;
    return { keys: keysLines(session.lines()), before: fs.readFileSync(before, 'utf8'), after: fs.readFileSync(after, 'utf8') };
  } finally {
    session.close();
  }
}

interface Probe {
  answer: { answered: true; kittyFlags?: number } | { answered: false };
  ms: number;
  before: string;
  after: string;
  raw: boolean;
}

/** The probe alone (the built askTerminal) in a pty whose terminal answers as `terminal` says: what test/fixtures/askTerminal.mjs prints. */
async function probeIn(terminal: Pick<PtyOptions, 'answers' | 'replies'>): Promise<Probe> {
  requireBuiltCli();
  const fixture = path.join(repoRoot, 'test', 'fixtures', 'askTerminal.mjs');
  const probe = path.join(repoRoot, 'dist', 'services', 'doctor', 'terminalKeys.js');
  const session = startInPty(process.execPath, [fixture, probe], { cwd: sb.base, env: withAgentHomes(sb), cols: 100, rows: 30, ...terminal }, 'askTerminal');
  try {
    await session.exited;
    const line = /probe (\{.*\})/.exec(session.output());
    if (!line?.[1]) throw new Error(`the fixture printed no result:\n${session.output()}`);
    return JSON.parse(line[1]) as Probe;
  } finally {
    session.close();
  }
}

describe('asking the terminal', () => {
  it('reads the answers in raw mode and puts the mode back before it returns', async () => {
    const kitty = await probeIn({ replies: [{ prefix: '?', final: 'u', reply: '\x1b[?1u' }] });
    expect(kitty).toMatchObject({ answer: { answered: true, kittyFlags: 1 }, raw: false });
    expect(kitty.after).toBe(kitty.before);
    expect((await probeIn({})).answer).toEqual({ answered: true });
  });

  it('gives up at its deadline when the terminal answers nothing, the mode put back', async () => {
    const silent = await probeIn({ answers: false });
    expect(silent).toMatchObject({ answer: { answered: false }, raw: false });
    expect(silent.ms).toBeGreaterThanOrEqual(299);
    expect(silent.after).toBe(silent.before);
  });
});

describe('rewind doctor, the keys the terminal passes', () => {
  it('xterm.js answers DA1 and not the kitty query: no kitty keyboard protocol; the terminal mode is put back', async () => {
    const { keys, before, after } = await doctorIn({});
    expect(keys).toEqual([expect.stringMatching(/^✓ keys +kitty keyboard protocol: no; Shift\+PgUp scrolls the pane where the terminal passes it, else the mouse wheel$/)]);
    expect(after).toBe(before);
  });

  it('a terminal that answers the kitty query (CSI ? flags u) before DA1 speaks the kitty protocol', async () => {
    const { keys, before, after } = await doctorIn({ replies: [{ prefix: '?', final: 'u', reply: '\x1b[?0u' }] });
    expect(keys).toEqual([expect.stringMatching(/^✓ keys +kitty keyboard protocol: yes; Shift\+PgUp scrolls/)]);
    expect(after).toBe(before);
  });

  it('a terminal that answers nothing: doctor gives up after its deadline, says so, and leaves the mode as it was', async () => {
    const { keys, before, after } = await doctorIn({ answers: false });
    expect(keys).toEqual([expect.stringMatching(/^! keys +the terminal answered no query in 300 ms/), expect.stringMatching(/^→ if keys misbehave/)]);
    expect(after).toBe(before);
  });

  it('in the background (`rewind doctor &` from an interactive shell) it asks nothing: the system would stop it for touching the terminal', async () => {
    requireBuiltCli();
    const root = sb.repo('background');
    const shell = startInPty('bash', ['--norc', '--noprofile', '-i'], { cwd: root, env: { ...withoutAgents(), PS1: '$ ' }, cols: 240, rows: 60 }, 'bash');
    try {
      await shell.waitFor(/^\$ $/m, 10_000, 'the prompt');
      shell.write(`'${process.execPath}' '${cliPath}' doctor & wait $!; echo "exit=$?"\r`);
      // Stopped by the system (SIGTTOU), the job would not end: `wait` returns 128 + the signal, before any report.
      await shell.waitFor(/^exit=\d+$/m, 30_000, 'doctor to end or stop');
      expect(shell.text()).toMatch(/^exit=[01]$/m);
      expect(keysLines(shell.lines())).toEqual([expect.stringMatching(/^✓ keys +not asked \(rewind doctor runs in the background\); Shift\+PgUp scrolls/)]);
    } finally {
      shell.kill('SIGKILL');
      await shell.exited;
      shell.close();
    }
  });
});
