// Child processes a test starts, killed (and waited for) when it ends.
import type { ChildProcess } from 'node:child_process';

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
