// Child processes a test starts, killed (and waited for) when it ends.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { isAlive } from '../../src/os/processAlive.js';

export class Children {
  private running: ChildProcess[] = [];

  /** Tracks `child`; returns it. */
  add<T extends ChildProcess>(child: T): T {
    this.running.push(child);
    return child;
  }

  /** SIGKILLs those still running and waits for each to exit. */
  async killAll(): Promise<void> {
    for (const child of this.running) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    this.running = [];
  }
}

/** A pid that was in use and no longer is: a finished `node -e 0`. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  const pid = child.pid;
  await new Promise((resolve) => child.once('exit', resolve));
  if (pid === undefined) throw new Error('no pid');
  return pid;
}

/**
 * Whether `pid` still runs. An ended process whose parent is gone stays a zombie until init
 * reaps it (this machine's init: every ~2 s); it has ended, so it does not count.
 */
export function running(pid: number): boolean {
  return isAlive({ pid, host: os.hostname() });
}
