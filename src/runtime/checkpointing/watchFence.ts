import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Resolves once every file event that happened before the call has been delivered to this
 * process's fs.watch listeners (true), or after `deadlineMs` if that cannot be told (false).
 *
 * How: on Linux all of a process's fs.watch handles share one inotify queue, which libuv
 * reads in order and hands on event by event. A file of our own, created now in a folder of
 * our own and watched, queues its event behind all the earlier ones: when it arrives, they
 * have arrived. Where that order is not known to hold (other systems: macOS's FSEvents
 * may deliver the fence first), or the folder cannot be made, the deadline stands in, as a
 * wait that is usually long enough.
 */
export async function fileEventsDelivered(deadlineMs: number): Promise<boolean> {
  let dir: string | undefined;
  let probe: fs.FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), deadlineMs);
      if (process.platform !== 'linux') return;
      try {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-fence-'));
        probe = fs.watch(dir, (_event, name) => {
          if (name?.toString() === 'fence') resolve(true);
        });
        probe.on('error', () => undefined);
        fs.writeFileSync(path.join(dir, 'fence'), '');
      } catch {
        // No fence possible here: the deadline decides.
      }
    });
  } finally {
    clearTimeout(timer);
    probe?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}
