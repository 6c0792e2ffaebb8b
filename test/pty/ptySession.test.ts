import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandNotFoundError, PtySession, type PtyExit, type PtySpawnOptions } from '../../src/pty/ptySession.js';
import { resolveCommand } from '../../src/pty/resolveCommand.js';
import { waitFor } from '../helpers/waitFor.js';

let sandbox: string;
const sessions: PtySession[] = [];

beforeAll(() => {
  sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-pty-'));
});

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.terminate(200)));
  fs.rmSync(sandbox, { recursive: true, force: true });
});

/** A minimal environment: a fake HOME, no CI (and nothing else inherited). */
function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: sandbox, LANG: 'C.UTF-8' };
}

/** Spawns a child and records its output and what happened in which order. */
async function start(command: string, args: string[], options: Partial<PtySpawnOptions> = {}) {
  const session = await PtySession.spawn({ command, args, cwd: sandbox, env: childEnv(), cols: 80, rows: 24, ...options });
  sessions.push(session);
  let output = '';
  const order: string[] = [];
  let exit: PtyExit | undefined;
  const decoder = new TextDecoder();
  session.onData((data) => {
    output += decoder.decode(data, { stream: true });
    order.push('data');
  });
  session.onExit((e) => {
    exit = e;
    order.push('exit');
  });
  return { session, output: () => output, order, exit: () => exit };
}

describe('PtySession', () => {
  it('delivers the output, then the exit code', async () => {
    const child = await start('sh', ['-c', 'echo hello; exit 3']);
    const exit = await child.session.exited;
    expect(exit).toEqual({ exitCode: 3, signal: 0 });
    expect(child.exit()).toEqual(exit);
    expect(child.output()).toContain('hello');
    expect(child.order.at(-1)).toBe('exit');
    expect(child.order.filter((e) => e === 'exit')).toHaveLength(1);
  });

  it('spawns at the given size and passes resizes on', async () => {
    const child = await start('sh', ['-c', 'stty size; read line; stty size; read line'], { cols: 90, rows: 30 });
    await waitFor(() => child.output().includes('30 90'), 5_000, 'the first stty size');
    child.session.resize(100, 40);
    child.session.write('\r');
    await waitFor(() => child.output().includes('40 100'), 5_000, 'stty size after the resize');
    child.session.write('\r');
    expect(await child.session.exited).toEqual({ exitCode: 0, signal: 0 });
  });

  it('throws CommandNotFoundError for a missing command, before spawning anything', async () => {
    await expect(PtySession.spawn({ command: 'rewind-no-such-command-x9', cwd: sandbox, env: childEnv(), cols: 80, rows: 24 })).rejects.toThrow(
      CommandNotFoundError,
    );
    await expect(PtySession.spawn({ command: './missing.sh', cwd: sandbox, env: childEnv(), cols: 80, rows: 24 })).rejects.toThrow(
      /no such file/,
    );
  });

  it('delivers the whole of a flood before the exit', async () => {
    // Without the drain, node-pty lost the last 4-15 KB of this in most runs here.
    for (let run = 0; run < 3; run += 1) {
      const child = await start('seq', ['1', '200000']);
      await child.session.exited;
      const lines = child.output().trimEnd().split('\r\n');
      expect(lines).toHaveLength(200000);
      expect(lines.at(-1)).toBe('200000');
      expect(child.order.at(-1)).toBe('exit');
    }
  });

  it('hands output that came before the first listener to that listener', async () => {
    const session = await PtySession.spawn({ command: 'sh', args: ['-c', 'echo early'], cwd: sandbox, env: childEnv(), cols: 80, rows: 24 });
    sessions.push(session);
    await session.exited;
    let output = '';
    session.onData((data) => (output += data.toString('utf8')));
    expect(output).toContain('early');
    const late = await new Promise<PtyExit>((resolve) => session.onExit(resolve));
    expect(late).toEqual({ exitCode: 0, signal: 0 });
  });

  it('terminate() ends an interactive bash, which ignores SIGTERM', async () => {
    const child = await start('bash', ['--norc', '--noprofile', '-i'], { env: { ...childEnv(), PS1: 'ready> ' } });
    await waitFor(() => child.output().includes('ready> '), 5_000, 'the bash prompt');
    child.session.kill('SIGTERM');
    child.session.write('echo still-$((40+2))\r');
    await waitFor(() => child.output().includes('still-42'), 5_000, 'bash to answer after SIGTERM');
    expect(child.session.exitStatus).toBeUndefined();
    const exit = await child.session.terminate();
    expect(exit.signal !== 0 || exit.exitCode !== 0).toBe(true);
    expect(child.order.at(-1)).toBe('exit');
  });

  it('terminate() falls back to SIGKILL for a child that ignores SIGHUP', async () => {
    const child = await start('sh', ['-c', 'trap "" HUP TERM; echo armed; while :; do read x; done']);
    await waitFor(() => child.output().includes('armed'), 5_000, 'the trap to be set');
    const exit = await child.session.terminate(100);
    expect(exit.signal).toBe(9);
  });

  it('ignores writes and resizes after the exit', async () => {
    const child = await start('true', []);
    await child.session.exited;
    expect(() => {
      child.session.write('x');
      child.session.resize(10, 10);
      child.session.kill();
    }).not.toThrow();
  });
});

describe('resolveCommand', () => {
  it('finds commands on the PATH of the given environment, and paths relative to cwd', async () => {
    const bin = path.join(sandbox, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const tool = path.join(bin, 'mytool');
    fs.writeFileSync(tool, '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const plain = path.join(bin, 'notexec');
    fs.writeFileSync(plain, 'data', { mode: 0o644 });
    expect(await resolveCommand('mytool', { PATH: `/nonexistent:${bin}` }, sandbox)).toBe(tool);
    expect(await resolveCommand('bin/mytool', {}, sandbox)).toBe(tool);
    await expect(resolveCommand('mytool', { PATH: '/nonexistent' }, sandbox)).rejects.toThrow(/not on PATH/);
    await expect(resolveCommand('notexec', { PATH: bin }, sandbox)).rejects.toThrow(/not on PATH/);
    await expect(resolveCommand('./bin/notexec', {}, sandbox)).rejects.toThrow(/not executable/);
    await expect(resolveCommand('bin', { PATH: sandbox }, sandbox)).rejects.toThrow(CommandNotFoundError);
  });
});
