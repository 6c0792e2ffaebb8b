// The full-screen app, end to end: the built CLI in a real pty, its screen read through
// @xterm/headless, input written only once the screen shows what the step waits for.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { running } from '../helpers/children.js';
import { treePaths } from '../helpers/shadow.js';
import { startRewind, type TermSession, terminalSandbox } from '../helpers/term.js';
import { write } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const terminals = terminalSandbox('rewind-e2e-');

const shell = ['--', 'bash', '--norc', '--noprofile'];

function start(root: string, args = shell, size: { cols?: number; rows?: number } = {}): TermSession {
  const session = startRewind(args, { cwd: root, env: { ...terminals.sb.env, PS1: 'agent$ ' }, ...size });
  terminals.track(session);
  return session;
}

/** Types a command and presses Enter (as two reads: the Enter is its own key). */
function type(session: TermSession, line: string): void {
  session.write(line);
  session.write('\r');
}

/** Rewind around bash in a new project `name`, its command bar open. */
async function withCommandBar(name: string): Promise<TermSession> {
  const session = start(terminals.sb.repo(name));
  await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
  session.write('\x1d');
  await session.waitFor(/◈ \//, 5_000, 'the command bar');
  return session;
}

describe('rewind -- <agent>', () => {
  it('shows the agent with its colours and the status line; keys reach it; Enter checkpoints the state before the command', async () => {
    const root = terminals.sb.repo('app');
    const session = start(root);
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    await session.waitFor(/◈ rewind .*Esc Esc rewind · Ctrl\+\] commands/, 5_000, 'the status line');

    session.write("printf '\\033[31mRED-TEXT\\033[0m\\n'");
    session.write('\r');
    await session.waitFor((screen) => screen.split('\n').some((line) => line.startsWith('RED-TEXT')), 10_000, 'the red output');
    expect(session.colorOf('RED-TEXT')).toBe(1);

    // A change first, so the Enter below has something new to checkpoint (an unchanged
    // tree adds no entry).
    fs.writeFileSync(path.join(root, 'edited-by-hand.txt'), 'edited\n');
    type(session, 'echo created > made.txt');
    await session.waitFor(() => fs.existsSync(path.join(root, 'made.txt')), 10_000, 'made.txt');
    const checkpoints = terminals.sb.open(root).list();
    const enter = checkpoints.filter((record) => record.trigger === 'enter');
    const before = enter.find((record) => record.label === 'echo created > made.txt');
    expect(before, JSON.stringify(enter.map((record) => record.label))).toBeDefined();
    // Each run of the app is a session of its own (the picker separates them).
    expect(before?.session).toMatch(/^\d{4}-\d\d-\d\d-[0-9a-f]{6}$/);
    // Taken BEFORE the key reached the agent: the file is not in it.
    const tree = treePaths(terminals.sb.open(root).repo.gitDir, before?.tree ?? '');
    expect(tree).not.toContain('made.txt');
    expect(tree).toContain('edited-by-hand.txt');
    await session.waitFor(/#\d+ · /, 5_000, 'the checkpoint count in the status line');
  });

  it('a single Esc reaches the agent and opens nothing; Esc Esc opens the rewind overlay, and Esc closes it', async () => {
    const root = terminals.sb.repo('esc');
    write(root, 'a.txt', 'a\n');
    await terminals.sb.open(root).snapshot({ label: 'a checkpoint to show' });
    const session = start(root, ['--', 'cat', '-v']);
    await session.waitFor(/◈ rewind/, 15_000, 'the status line');
    session.write('\x1b');
    session.write('X');
    session.write('\r');
    await session.waitFor(/\^\[X/, 10_000, 'cat echoing the Esc it received');
    expect(session.text()).not.toContain('a checkpoint to show');

    // Esc, a key, Esc is not Esc Esc, however quick: each reaches cat, one read at a time
    // (after cat's own line, so its output does not land between the echoes).
    await session.waitFor((screen) => (screen.match(/\^\[X/g) ?? []).length >= 2, 10_000, "cat's line");
    const escs = () => (session.text().match(/\^\[/g) ?? []).length;
    const before = escs();
    session.write('\x1b');
    await session.waitFor(() => escs() > before, 10_000, 'the first Esc echoed');
    session.write('y');
    await session.waitFor(/\^\[y/, 10_000, 'the key echoed');
    session.write('\x1b');
    await session.waitFor(() => escs() > before + 1, 10_000, 'the second Esc echoed');
    session.write('marker\r');
    await session.waitFor(/marker/, 10_000, 'typing carries on');
    // Alt+[ looks like the start of an arrow key's sequence: with nothing after it, it
    // still reaches the agent.
    session.write('\x1b[');
    await session.waitFor(/\^\[\[/, 10_000, 'Alt+[ echoed');
    expect(session.text()).not.toContain('a checkpoint to show');

    session.write('\x1b\x1b');
    await session.waitFor(/rewind to a checkpoint[\s\S]*a checkpoint to show/, 10_000, 'the rewind picker');
    session.write('\x1b');
    await session.waitFor((screen) => !screen.includes('a checkpoint to show'), 10_000, 'the overlay to close');
  });

  it('keys reach the agent byte for byte: an X10 mouse report past column 95, UTF-8 text', async () => {
    const root = terminals.sb.repo('bytes');
    // An agent that turns X10 mouse reporting on and prints the hex of every byte it reads.
    const agent = `process.stdin.setRawMode(true);
      process.stdout.write('\\x1b[?9hready\\r\\n');
      process.stdin.on('data', (bytes) => process.stdout.write('got ' + bytes.toString('hex') + '\\r\\n'));`;
    const session = start(root, ['--', process.execPath, '-e', agent]);
    await session.waitFor(/^ready$/m, 15_000, 'the agent ready');
    const received = () => [...session.text().matchAll(/^got ([0-9a-f]+)$/gm)].map((match) => match[1]).join('');
    // A click at column 200, row 5: ESC [ M, then 32 + button, 32 + column, 32 + row.
    session.writeBytes(Buffer.from([0x1b, 0x5b, 0x4d, 32, 32 + 200, 32 + 5]));
    await session.waitFor(() => received().length >= 12, 10_000, 'the mouse report at the agent');
    expect(received()).toBe('1b5b4d20e825');
    session.writeBytes(Buffer.from('é世', 'utf8'));
    await session.waitFor(() => received().length >= 12 + 10, 10_000, 'the text at the agent');
    expect(received()).toBe('1b5b4d20e825' + 'c3a9e4b896');
  });

  it('resizing the terminal resizes the agent (stty size inside), and the exit code passes through', async () => {
    const root = terminals.sb.repo('resize');
    const session = start(root, shell, { cols: 100, rows: 30 });
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    type(session, 'stty size');
    await session.waitFor(/^29 100$/m, 10_000, 'the first size (rows - 1: the status line takes the last)');
    session.resize(120, 40);
    await session.waitFor(() => /◈ rewind/.test(session.lines()[39] ?? ''), 10_000, 'the status line on the new last row');
    type(session, 'stty size');
    await session.waitFor(/^39 120$/m, 10_000, 'the new size');
    type(session, 'exit 7');
    expect((await session.exited).exitCode).toBe(7);
  });

  it('/quit leaves with exit 0, though the agent ends by SIGHUP', async () => {
    const session = await withCommandBar('quit');
    session.write('quit');
    session.write('\r');
    // bash is ended with SIGHUP (129 if that were passed on): leaving on purpose is a success.
    expect((await session.exited).exitCode).toBe(0);
  });

  it('the command bar lists the commands, narrows them as you type, Tab completes; /quit leaves with exit 0', async () => {
    const session = await withCommandBar('command-bar');
    await session.waitFor(/◈ \/ +\/checkpoint \[label\] {2}\/checkpoints {2}\/rewind {2}\/redo {2}\/bisect <test> {2}\/config {2}\/help {2}\/quit/, 5_000, 'every command listed');
    session.write('qu');
    await session.waitFor(/◈ \/qu +\/quit: stop the agent and leave rewind · Tab completes/, 5_000, 'the one command matching');
    session.write('\t');
    await session.waitFor(/◈ \/quit +\/quit: stop the agent and leave rewind · Enter runs/, 5_000, 'the command completed');
    session.write('\r');
    expect((await session.exited).exitCode).toBe(0);
  });

  it('puts the terminal back after SIGTERM: alternate screen left, cursor shown, modes off', async () => {
    const root = terminals.sb.repo('sigterm');
    const session = start(root);
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    expect(session.output()).toContain('\x1b[?1049h');
    session.kill('SIGTERM');
    const exit = await session.exited;
    expect(exit.exitCode).toBe(128 + 15);
    const tail = session.output().slice(session.output().lastIndexOf('\x1b[?1049h'));
    expect(tail).toContain('\x1b[?1049l');
    expect(tail).toContain('\x1b[?25h');
    expect(tail).toContain('\x1b[?2004l');
  });

  it('an agent that does not exist: one clear line and exit 127, terminal untouched', async () => {
    const root = terminals.sb.repo('missing');
    const session = start(root, ['--', 'no-such-agent-rewind-test']);
    const exit = await session.exited;
    expect(exit.exitCode).toBe(127);
    expect(session.output()).toContain('no-such-agent-rewind-test');
    expect(session.output()).not.toContain('\x1b[?1049h');
    expect(session.output()).not.toMatch(/at .*\.js:\d+/);
  });

  it('in the home folder checkpoints are off, the status line says why, and the agent still runs', async () => {
    const session = startRewind(shell, { cwd: terminals.sb.home, env: { ...terminals.sb.env, PS1: 'agent$ ' } });
    terminals.track(session);
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    await session.waitFor(/checkpoints off: this is your home folder/, 5_000, 'the reason in the status line');
    type(session, 'echo still-running');
    await session.waitFor(/^still-running$/m, 10_000, 'the agent answering');
  });

  it('when its terminal goes away (window closed: SIGHUP) it stops the agent and ends', async () => {
    const root = terminals.sb.repo('hangup');
    const session = start(root);
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    type(session, 'echo "agent pid $$"');
    await session.waitFor(/^agent pid \d+$/m, 10_000, "the agent's pid");
    const agentPid = Number(/^agent pid (\d+)$/m.exec(session.text())?.[1]);
    session.hangUp();
    await session.exited;
    await waitFor(() => !running(agentPid), 10_000, 'the agent to be gone');
  });

  it('an Enter or a burst of changes that changed nothing adds no checkpoint', async () => {
    const root = terminals.sb.repo('unchanged');
    const session = start(root);
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    type(session, 'echo first > one.txt');
    await session.waitFor(() => fs.existsSync(path.join(root, 'one.txt')), 10_000, 'one.txt');
    // The session started with a checkpoint, so the Enter of "echo first" found nothing new;
    // one of the next (or the watcher, whichever comes first) checkpoints one.txt; after
    // that nothing changes, so the later Enters add nothing.
    type(session, ': first-noop');
    type(session, ': second-noop');
    type(session, 'echo marker-after-noops');
    await session.waitFor(/^marker-after-noops$/m, 10_000, 'the agent answering');
    const checkpoints = terminals.sb.open(root);
    const records = checkpoints.list();
    expect(records[0]).toMatchObject({ trigger: 'start', label: 'session start' });
    expect(records.map((record) => record.label)).not.toContain('echo first > one.txt');
    expect(records.map((record) => record.label)).not.toContain(': second-noop');
    expect(records.map((record) => record.label)).not.toContain('echo marker-after-noops');
    const withOne = records.filter((record) => treePaths(checkpoints.repo.gitDir, record.tree).includes('one.txt'));
    expect(withOne).toHaveLength(1);
  });

  it('a typo in config.json does not keep the agent from starting: the status line names the key, its default stands in', async () => {
    fs.writeFileSync(path.join(terminals.sb.configDir, 'config.json'), '{"gc_every": "twenty", "double_esc_ms": 400}\n');
    const root = terminals.sb.repo('bad-config');
    const session = start(root);
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    await session.waitFor(/gc_every/, 5_000, 'the config problem in the status line');
    type(session, 'echo still-working');
    await session.waitFor(/^still-working$/m, 10_000, 'the agent answering');
    await waitFor(() => terminals.sb.open(root).list().length > 0, 10_000, 'a checkpoint');
  });

  it("a burst's label says what the step changed by kind, biggest part first", async () => {
    const root = terminals.sb.repo('burst');
    for (let i = 0; i < 300; i++) write(root, `tests/t${String(i).padStart(3, '0')}.test.ts`, `test ${i}\n`);
    terminals.sb.git(root, 'add', '-A');
    terminals.sb.git(root, 'commit', '-q', '-m', 'tests');
    const session = start(root);
    await session.waitFor(/agent\$/, 15_000, 'the agent prompt');
    // The watcher is on once a change it sees is checkpointed.
    const watched = () => terminals.sb.open(root).list().filter((record) => record.trigger === 'watch');
    // It starts after the session's first checkpoint: a probe written before then is not
    // seen, so it is written again (new content) until one is checkpointed.
    for (let attempt = 0; watched().length === 0; attempt++) {
      if (attempt === 20) throw new Error('the watcher never checkpointed a probe');
      write(root, 'probe.txt', `probe ${attempt}\n`);
      await waitFor(() => watched().length > 0, 2_000, 'the watcher to checkpoint a probe').catch(() => undefined);
    }
    // Not through an Enter of ours: the watcher sees the burst.
    fs.rmSync(path.join(root, 'tests'), { recursive: true });
    fs.symlinkSync('README.md', path.join(root, 'run.sh'));
    const probes = watched().length;
    await waitFor(() => watched().length > probes, 15_000, 'the burst checkpoint');
    const burst = watched().at(-1);
    expect(burst?.label).toBe('files changed: 300 deleted, 1 added: tests/, run.sh');
  });
});

describe('NO_COLOR', () => {
  async function coloursOf(root: string, env: Record<string, string>): Promise<Array<number | undefined>> {
    const session = startRewind(['--', 'cat'], { cwd: root, env: { ...terminals.sb.env, ...env } });
    terminals.track(session);
    await session.waitFor(/◈ rewind .*Esc Esc rewind/, 15_000, 'the status line');
    const brand = session.colorOf('◈ rewind');
    session.write('\x1b\x1b');
    await session.waitFor(/rewind to a checkpoint[\s\S]*the one checkpoint/, 10_000, 'the rewind picker');
    return [brand, session.colorOf('the one checkpoint'), session.colorOf('rewind to a checkpoint')];
  }

  it("draws Rewind's own rows without colours when NO_COLOR is set, and with them when not", async () => {
    const root = terminals.sb.repo('nocolor');
    write(root, 'a.txt', 'a\n');
    await terminals.sb.open(root).snapshot({ label: 'the one checkpoint' });
    expect((await coloursOf(root, {})).some((colour) => colour !== undefined)).toBe(true);
    expect(await coloursOf(root, { NO_COLOR: '1' })).toEqual([undefined, undefined, undefined]);
  });
});
