// Keeps the tail of a pty child's output from being lost at its exit (see DrainAtExit).
import fs from 'node:fs';
import { pidAlive } from '../os/processAlive.js';

/** How often a live child is checked for having exited. */
const EXIT_POLL_MS = 25;
/** How long the output must stay quiet after the child is gone before the pty is let go. */
const QUIET_MS = 20;

/**
 * On Linux node-pty loses the tail of fast output at exit (node-pty #72/#85/#726): when the
 * child closes the slave side, the master reports POLLHUP, and libuv takes POLLHUP after a
 * short read for end-of-file and stops reading while the kernel still holds up to tens of KB
 * (measured here: 12 of 20 `seq 1 200000` runs lost 4-15 KB). So the slave is opened here
 * right after the spawn, which keeps the master from ever seeing the hang-up while the child
 * lives. A check every 25 ms notices when the child is gone; once the output has then stayed
 * quiet for 20 ms and one more I/O poll brought nothing, the slave descriptor is closed: the
 * master reads what is left, gets EIO, node-pty closes and reports the exit after every byte
 * was delivered. node-pty's own 200 ms deadline after the child's death still applies (a
 * grandchild that keeps the pty open and writing cannot hold the exit back longer); only an
 * event loop blocked for longer than that around the exit could still lose a tail.
 *
 * Where the slave cannot be opened (no `ptsName`, e.g. Windows) it does nothing: node-pty's
 * own behaviour then.
 */
export class DrainAtExit {
  private slaveFd: number | undefined;
  private poll: NodeJS.Timeout | undefined;
  private dataCount = 0;
  private done = false;

  constructor(pty: { readonly pid: number }) {
    this.slaveFd = holdSlave(pty);
    if (this.slaveFd === undefined) return;
    this.poll = setInterval(() => {
      if (this.done || pidAlive(pty.pid)) return;
      clearInterval(this.poll);
      this.poll = undefined;
      this.releaseWhenQuiet();
    }, EXIT_POLL_MS);
    this.poll.unref();
  }

  /** Counts a piece of output (call it from the pty's data listener). */
  sawData(): void {
    this.dataCount += 1;
  }

  /** The pty reported the exit: nothing more to hold. */
  exited(): void {
    this.done = true;
    clearInterval(this.poll);
    this.poll = undefined;
    this.releaseSlave();
  }

  /** Lets go of the slave once no output came for QUIET_MS and through one more I/O poll. */
  private releaseWhenQuiet(): void {
    const seen = this.dataCount;
    setTimeout(() => {
      // setImmediate runs after the next poll phase, so output that was waiting behind a
      // busy event loop is read (and counted) before we decide.
      setImmediate(() => {
        if (this.done) return;
        if (this.dataCount !== seen) this.releaseWhenQuiet();
        else this.releaseSlave();
      });
    }, QUIET_MS);
  }

  private releaseSlave(): void {
    if (this.slaveFd === undefined) return;
    const fd = this.slaveFd;
    this.slaveFd = undefined;
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  }
}

/** Opens the pty's slave side; undefined where that is not possible. */
function holdSlave(pty: object): number | undefined {
  const ptsName = (pty as { ptsName?: unknown }).ptsName;
  if (typeof ptsName !== 'string' || ptsName === '') return undefined;
  try {
    return fs.openSync(ptsName, fs.constants.O_RDONLY | fs.constants.O_NOCTTY);
  } catch {
    return undefined;
  }
}
