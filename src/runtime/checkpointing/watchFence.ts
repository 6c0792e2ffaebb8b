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
 * per call cost what the queue holds (8 ms with 12,000 folders watched), at every step of a
 * session. Each call writes a file of its own name, so an event of an earlier call's file
 * never answers a later one. A folder taken away meanwhile (a cleaner of the temp folder) is
 * made again at once. The folder goes when the process exits; one whose process ended
 * without exiting (killed, or gone with its terminal by SIGHUP's own action) is removed by
 * the next process that makes a fence.
 */
export async function fileEventsDelivered(deadlineMs: number): Promise<boolean> {
  const name = `fence-${++calls}`;
  const fence = process.platform === 'linux' ? posted(name) : undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), deadlineMs);
      fence?.waiting.set(name, () => resolve(true));
    });
  } finally {
    clearTimeout(timer);
    if (fence) {
      fence.waiting.delete(name);
      fs.rm(path.join(fence.dir, name), { force: true }, () => undefined);
    }
  }
}

/** Writes the file `name` in the process's fence (made now, or again if its folder is gone); undefined when there can be none. */
function posted(name: string): Fence | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    const fence = openFence();
    if (!fence) return undefined;
    try {
      // Its event cannot be handed on before this call returns to the event loop, so the waiter set after it hears it.
      fs.writeFileSync(path.join(fence.dir, name), '');
      return fence;
    } catch {
      closeFence();
    }
  }
  return undefined;
}

interface Fence {
  dir: string;
  watcher: fs.FSWatcher;
  /** The calls waiting for their file's event, by its name. */
  waiting: Map<string, () => void>;
}

let open: Fence | undefined;
/** The calls made so far in this process: each names its file by its number. */
let calls = 0;

const fencePrefix = 'rewind-fence-';

/** Removes the fence folders in `tmp` of processes that are gone (named by pid; ours only). */
function removeFencesOfEndedProcesses(tmp: string): void {
  try {
    for (const entry of fs.readdirSync(tmp)) {
      const pid = entry.startsWith(fencePrefix) ? Number(/^(\d+)-/.exec(entry.slice(fencePrefix.length))?.[1]) : 0;
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
    const fence = { dir, watcher, waiting };
    // Its folder gone: this fence ends (not one made since), and the next call makes another.
    watcher.on('error', () => {
      if (open === fence) closeFence();
    });
    // It never keeps the process alive; the folder goes with the process.
    watcher.unref();
    open = fence;
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
