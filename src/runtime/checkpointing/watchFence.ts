import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidAlive } from '../../os/processAlive.js';

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
 *
 * The folder and its watch are made once per process (the fence): a watch added and removed
 * per call cost what the queue holds (8 ms with 12,000 folders watched, ~35 ms with 50,000,
 * at every step of a session on a big tree). Each call writes a file of its own name, so an
 * event of an earlier call's file never answers a later one. The folder goes when the process
 * exits; one whose process ended without exiting (killed, or gone with its terminal by
 * SIGHUP's own action) is removed by the next process that makes a fence.
 */
export async function fileEventsDelivered(deadlineMs: number): Promise<boolean> {
  const fence = process.platform === 'linux' ? openFence() : undefined;
  const name = fence ? `fence-${++fence.calls}` : '';
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), deadlineMs);
      if (!fence) return;
      fence.waiting.set(name, () => resolve(true));
      try {
        fs.writeFileSync(path.join(fence.dir, name), '');
      } catch {
        // The folder is gone (a cleaner of the temp folder): the deadline decides, and the next call makes another.
        closeFence();
      }
    });
  } finally {
    clearTimeout(timer);
    if (fence) {
      fence.waiting.delete(name);
      fs.rm(path.join(fence.dir, name), { force: true }, () => undefined);
    }
  }
}

interface Fence {
  dir: string;
  watcher: fs.FSWatcher;
  /** The calls waiting for their file's event, by its name. */
  waiting: Map<string, () => void>;
  calls: number;
}

let open: Fence | undefined;

const fencePrefix = 'rewind-fence-';

/** Removes the fence folders in `tmp` of processes that are gone (named by pid; ours only). */
function removeFencesOfEndedProcesses(tmp: string): void {
  try {
    for (const entry of fs.readdirSync(tmp)) {
      const pid = Number(/^rewind-fence-(\d+)-/.exec(entry)?.[1]);
      if (!pid || pid === process.pid || pidAlive(pid)) continue;
      const folder = path.join(tmp, entry);
      const stat = fs.lstatSync(folder);
      if (stat.isDirectory() && stat.uid === process.getuid?.()) fs.rmSync(folder, { recursive: true, force: true });
    }
  } catch {
    // Best effort: a folder left behind is empty files, and the next process tries again.
  }
}

/** The process's fence, made now if there is none; undefined when it cannot be made. */
function openFence(): Fence | undefined {
  if (open) return open;
  let dir: string | undefined;
  try {
    removeFencesOfEndedProcesses(os.tmpdir());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `${fencePrefix}${process.pid}-`));
    const waiting = new Map<string, () => void>();
    const watcher = fs.watch(dir, (_event, name) => waiting.get(name?.toString() ?? '')?.());
    watcher.on('error', () => closeFence());
    // It never keeps the process alive; the folder goes with the process.
    watcher.unref();
    open = { dir, watcher, waiting, calls: 0 };
    process.once('exit', closeFence);
    return open;
  } catch {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

function closeFence(): void {
  const fence = open;
  if (!fence) return;
  open = undefined;
  process.removeListener('exit', closeFence);
  fence.watcher.close();
  fs.rmSync(fence.dir, { recursive: true, force: true });
}
