// A process that runs past its deadline is stopped with everything it started: a snapshot
// script's git must not go on holding index.lock in the shadow repo after the timeout.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startProcess } from '../../src/checkpoints/git/git.js';
import { stopGroup } from '../../src/os/processGroup.js';
import { running } from '../helpers/children.js';
import { waitFor } from '../helpers/waitFor.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
const started: number[] = [];
beforeEach(() => {
  sb = createSandbox('rewind-git-');
});
afterEach(async () => {
  // Whatever a failing test left running must not outlive it.
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await sb.cleanup();
});

async function pidIn(file: string): Promise<number> {
  await waitFor(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8').endsWith('\n'), 5_000, `a pid in ${file}`);
  const pid = Number(fs.readFileSync(file, 'utf8'));
  started.push(pid);
  return pid;
}

describe('stopGroup', () => {
  // A member that has ended but is not reaped (its parent never waits for it, as init may
  // not for a while) runs nothing: the stop does not wait for it. Waiting for such a
  // zombie would hold up the grace before the SIGKILL here (ten minutes).
  it('returns once nothing of the group runs, though an ended member of it is not reaped', async () => {
    const dir = sb.folder('zombie');
    const pidFile = path.join(dir, 'keeper.pid');
    // perl (which git needs) forks a child that exits at once, moves to a group of its own
    // (the stop does not reach it) and never reaps the child: a zombie left in the group.
    const keeper = 'use POSIX; my $c = fork(); if ($c == 0) { POSIX::_exit(0) } setpgid(0, 0); open(my $f, ">", $ARGV[0]) or die; print $f "$$\\n"; close($f); sleep 60';
    const leader = spawn('sh', ['-c', 'perl -e "$1" "$2" & wait', 'group', keeper, pidFile], { detached: true, stdio: 'ignore' });
    const pgid = leader.pid ?? 0;
    started.push(pgid);
    const perl = await pidIn(pidFile);
    const zombie = () => fs.readdirSync('/proc').some((name) => /^\d+$/.test(name) && statOf(Number(name)).startsWith(`Z ${perl} ${pgid} `));
    await waitFor(zombie, 5_000, 'a zombie in the group, its parent perl');
    await stopGroup(pgid, 600_000);
    expect(running(pgid)).toBe(false);
    expect(zombie(), 'the zombie, still there').toBe(true);
  }, 20_000);
});

/** The fields of /proc/<pid>/stat after the command name ('' when it is gone). */
function statOf(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2);
  } catch {
    return '';
  }
}

describe('startProcess', () => {
  it('on timeout stops the children of a script too, not only the script', async () => {
    const dir = sb.folder('sleeper');
    const pidFile = path.join(dir, 'child.pid');
    // The child's output goes elsewhere, so the script's pipes close when the script dies.
    const script = 'sleep 30 >/dev/null 2>&1 & echo $! >"$1"; wait';
    const run = startProcess('sh', ['-c', script, 'sleeper', pidFile], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    const child = await pidIn(pidFile);
    expect(running(child)).toBe(true);
    await expect(run.finish({ timeoutMs: 100 })).rejects.toThrow(/took longer than .* and was stopped/);
    await waitFor(() => !running(child), 5_000, `the script's child (pid ${child}) to be gone`);
  });

  it("a timed-out script's git lets go of the shadow's index.lock, and the next snapshot goes ahead", async () => {
    const root = sb.repo('locked');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const indexLock = path.join(checkpoints.repo.gitDir, 'index.lock');
    const pidFile = path.join(sb.folder('pids'), 'git.pid');
    // update-index --index-info holds index.lock while it reads its input, which never ends.
    const script = 'sleep 30 2>/dev/null | git --git-dir="$1" update-index --index-info >/dev/null 2>&1 & echo $! >"$2"; wait';
    const run = startProcess('sh', ['-c', script, 'holder', checkpoints.repo.gitDir, pidFile], { cwd: root, env: checkpoints.repo.env });
    const git = await pidIn(pidFile);
    await waitFor(() => fs.existsSync(indexLock), 5_000, 'git to take index.lock');
    await expect(run.finish({ timeoutMs: 50 })).rejects.toThrow(/took longer/);
    await waitFor(() => !running(git), 5_000, `the script's git (pid ${git}) to be gone`);
    expect(fs.existsSync(indexLock)).toBe(false);

    write(root, 'after.txt', 'after\n');
    const { record } = await checkpoints.snapshot();
    expect(record).toMatchObject({ id: 2, deduped: false });
  });
});

/**
 * A Node process that starts a script through startProcess, and waits for it. It runs the
 * built module (npm test builds first), not the source through tsx: tsx's own signal
 * handlers would decide what SIGINT does to it.
 */
function holder(pidFile: string, then: string): ChildProcess {
  const built = path.resolve(import.meta.dirname, '../../dist/checkpoints/git/git.js');
  expect(fs.existsSync(built), 'the built git module (npm test builds first)').toBe(true);
  const program = `
    import { startProcess } from ${JSON.stringify(built)};
    const run = startProcess('sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $! >"$1"; wait', 'sleeper', ${JSON.stringify(pidFile)}], { cwd: '/', env: { PATH: process.env.PATH } });
    ${then}
    await run.finish();
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', program], { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
}

function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('the groups still running when rewind goes', () => {
  it('are killed when rewind is stopped by SIGINT, and SIGINT still ends rewind', async () => {
    const pidFile = path.join(sb.folder('sigint'), 'child.pid');
    const node = holder(pidFile, '');
    const exit = ended(node);
    const child = await pidIn(pidFile);
    node.kill('SIGINT');
    expect(await exit).toEqual({ code: null, signal: 'SIGINT' });
    await waitFor(() => !running(child), 5_000, `the script's child (pid ${child}) to be gone`);
  });

  it('are killed when rewind exits', async () => {
    const pidFile = path.join(sb.folder('exit'), 'child.pid');
    const node = holder(pidFile, `
      const { readFileSync } = await import('node:fs');
      while (!readFileSync(${JSON.stringify(pidFile)}, { flag: 'a+' }).toString().endsWith('\\n')) await new Promise((r) => setTimeout(r, 5));
      process.exit(3);`);
    const exit = ended(node);
    const child = await pidIn(pidFile);
    expect(await exit).toEqual({ code: 3, signal: null });
    await waitFor(() => !running(child), 5_000, `the script's child (pid ${child}) to be gone`);
  });
});
