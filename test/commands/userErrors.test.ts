// Issue 16: every error a user can cause is one line on stderr that says what to do, a
// non-zero exit, and nothing lost; the BUILT command line, as users run it. Git missing
// has its own file (gitMissing.test.ts); bad config.json in depth: configProblems.test.ts.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/os/lock.js';
import { asNobody } from '../helpers/asNobody.js';
import { seamsEnv } from '../helpers/restoreKit.js';
import { cliPath, requireBuiltCli, startRewind } from '../helpers/term.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-user-errors-');
});
afterEach(() => sb.cleanup());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `rewind ...args` (the built CLI) in `cwd`, no terminal. */
function cli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = sb.env): Run {
  requireBuiltCli();
  const run = spawnSync(process.execPath, [cliPath, ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Exactly one line on stderr, never a stack or "internal error". */
function oneLine(stderr: string): string {
  expect(stderr.endsWith('\n') && !stderr.slice(0, -1).includes('\n'), stderr).toBe(true);
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
  return stderr.trim();
}

describe('user-caused errors', () => {
  it('not a git repository, and a store it may not write: one line naming the way out, the files untouched', () => {
    fs.chmodSync(sb.base, 0o755);
    // A plain folder of the user's (uid 65534); REWIND_HOME is root's.
    const plain = sb.folder('plain');
    write(plain, 'notes.txt', 'keep me\n');
    execFileSync('chown', ['-R', '65534:65534', plain, sb.home]);
    fs.chmodSync(sb.store, 0o755);
    const result = asNobody(plain, sb.env, ['snapshot']);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^rewind: cannot use the checkpoint store .*: permission denied .*set REWIND_HOME to a folder you own$/);
    expect(fs.readFileSync(path.join(plain, 'notes.txt'), 'utf8')).toBe('keep me\n');
    expect(fs.readdirSync(plain)).toEqual(['notes.txt']);
  });

  it('an agent that is not installed: one line naming it, exit 127, the terminal untouched', async () => {
    const root = sb.repo('no-agent');
    const term = startRewind(['--', 'no-such-agent'], { cwd: root, env: sb.env, cols: 200, rows: 10 });
    try {
      expect((await term.exited).exitCode).toBe(127);
      await waitFor(() => term.text().includes('no-such-agent'), 5_000, 'the line');
      const shown = term.lines().filter((line) => line.trim() !== '');
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(/^rewind: .*no-such-agent/);
      expect(term.output()).not.toContain('\x1b[?1049h');
    } finally {
      term.close();
    }
  });

  it('a bad config.json: one line per bad key naming the fix, and the command still works', () => {
    const root = sb.repo('bad-config');
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), '{"double_esc_ms": "soon", "gc_every": -3, "colour": true}\n');
    const result = cli(['snapshot'], root);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const [index, key] of ['double_esc_ms', 'gc_every', 'colour'].entries()) {
      expect(lines[index]).toMatch(new RegExp(`^rewind: warning: .*config\\.json: .*\`${key}\`.*(fix the file|rename or remove it in the file)$`));
    }
    expect(result.stdout).toMatch(/^checkpoint #1 /);
  });

  it('an unknown checkpoint id: one line pointing at `rewind list`, nothing changed', () => {
    const root = sb.repo('unknown-id');
    expect(cli(['snapshot'], root).code).toBe(0);
    write(root, 'README.md', 'edited\n');
    for (const args of [['restore', '42', '--yes'], ['diff', '42'], ['restore', '42', '--conversation']]) {
      const result = cli(args, root);
      expect(result.code, args.join(' ')).toBe(1);
      expect(oneLine(result.stderr)).toBe('rewind: there is no checkpoint #42 in this project: `rewind list` shows them');
    }
    const garbled = cli(['restore', '1e3', '--yes'], root);
    expect(garbled.code).not.toBe(0);
    expect(oneLine(garbled.stderr)).toMatch(/^rewind: .*1e3/);
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toBe('edited\n');
  });

  it('the store locked by another live process: a bounded wait that says so, then one line and exit 1; or on, once it is free', async () => {
    const root = sb.repo('locked');
    expect(cli(['snapshot'], root).code).toBe(0);
    write(root, 'README.md', 'edited\n');
    const lock = sb.open(root).store.lock;
    // This test's own process holds the lock, as a restore in another terminal would.
    const release = await acquireLock(lock, { purpose: 'restore' });
    try {
      const result = cli(['snapshot'], root, { ...sb.env, ...seamsEnv({ REWIND_TEST_LOCK_WAIT_MS: '200' }) });
      expect(result.code).toBe(1);
      const [waiting, failed, ...rest] = result.stderr.trim().split('\n');
      expect(rest).toEqual([]);
      expect(waiting).toMatch(new RegExp(`^rewind: another rewind is working on this project \\(pid ${process.pid}, restore, since .*\\): waiting for it, 200 ms at most$`));
      expect(failed).toMatch(new RegExp(`^rewind: another rewind is working on this project \\(pid ${process.pid}, restore, since .*\\); try again when it is done, or remove .*lock if no rewind is running$`));

      // With the usual wait: it says it waits, and goes on once the holder is done.
      const child = spawn(process.execPath, [cliPath, 'snapshot'], { cwd: root, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await waitFor(() => /waiting for it, 30 s at most\n/.test(stderr), 15_000, 'the waiting line');
      release();
      expect(await exited).toBe(0);
      expect(stdout).toMatch(/^checkpoint #2 /);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      release();
    }
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toBe('edited\n');
  });

  it('an unknown flag: one line naming that command’s --help, exit 2', () => {
    const root = sb.repo('flags');
    const cases: [string[], string][] = [
      [['snapshot', '--bogus'], 'snapshot'],
      [['list', '--bogus'], 'list'],
      [['diff', '1', '--bogus'], 'diff'],
      [['restore', '1', '--bogus'], 'restore'],
      [['redo', '--bogus'], 'redo'],
      [['config', '--bogus'], 'config'],
      [['demo', '--bogus'], 'demo'],
      [['--agent', 'claude', '--bogus', '--', 'claude'], 'run'],
    ];
    for (const [args, command] of cases) {
      const result = cli(args, root);
      expect(result.code, args.join(' ')).toBe(2);
      expect(oneLine(result.stderr), args.join(' ')).toMatch(new RegExp(`^rewind: .*'--bogus'.*\\(see \`rewind ${command} --help\`\\)$`));
    }
    const unknown = cli(['--bogus'], root);
    expect(unknown.code).toBe(2);
    expect(oneLine(unknown.stderr)).toBe("rewind: unknown command '--bogus' (see `rewind --help`)");
    // Names every object has are no commands either (they were "internal error: main is not a function").
    for (const name of ['constructor', 'toString', '__proto__']) {
      const result = cli([name], root);
      expect(result.code, name).toBe(2);
      expect(oneLine(result.stderr)).toBe(`rewind: unknown command '${name}' (see \`rewind --help\`)`);
    }
  });
});
