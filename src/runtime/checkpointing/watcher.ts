import fs from 'node:fs';
import path from 'node:path';
import { fileEventsDelivered } from './watchFence.js';

export interface WatcherOptions {
  /** Quiet time after the last change before a burst counts as settled (ms). */
  debounceMs?: number;
  /** Folders (absolute) whose changes never count: rewind's own store when it is inside. */
  ignoreDirs?: readonly string[];
  /** Project-relative folders to watch from the start (those a checkpoint holds). */
  folders: readonly string[];
  /** Which of these project-relative paths the project's rules ignore: folders never watched, files never reported. */
  ignored: (paths: string[]) => Promise<Set<string>>;
  onSettled: (paths: string[]) => void;
  /** The watcher cannot work (its top folder cannot be watched). */
  onError: (error: Error) => void;
  /** At most this many folders are watched (one inotify watch each); `onFull` is told once when more would be. */
  maxFolders?: number;
  onFull?: (message: string) => void;
}

const maxPaths = 5_000;
/** How long a resume may wait for the file events of what happened while paused. */
const resumeDeadlineMs = 1_000;

function isGitPath(relative: string): boolean {
  return relative === '.git' || relative.startsWith('.git/') || relative.includes('/.git/') || relative.endsWith('/.git');
}

/**
 * Watches the project and reports each burst of changes once it settles. Only folders that
 * are not ignored are watched, one non-recursive watch each (Node's recursive watch on Linux
 * walks and watches everything, node_modules included: seconds and tens of thousands of
 * watches in a real project). A new folder is watched when it appears, unless ignored.
 * Ignored files in watched folders (editor swap files, logs) are left out of a burst, and a
 * burst of nothing else is not reported. `.git` is never reported. Paused while a restore
 * writes.
 */
export class ChangeWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private paused = 0;
  /** Counts pauses: a burst whose check began before a pause is dropped. */
  private pauses = 0;
  private closed = false;
  private full = false;

  constructor(
    private readonly root: string,
    private readonly options: WatcherOptions,
  ) {
    this.watch('');
    for (const folder of options.folders) this.watch(folder);
  }

  /** How many folders are watched. */
  get size(): number {
    return this.watchers.size;
  }

  private watch(folder: string): void {
    if (this.closed || this.watchers.has(folder) || isGitPath(folder)) return;
    if (this.watchers.size >= (this.options.maxFolders ?? 20_000)) {
      if (!this.full) this.options.onFull?.(`watching the first ${this.watchers.size} folders only: changes in the others are seen at the next Enter`);
      this.full = true;
      return;
    }
    const full = path.join(this.root, folder);
    if (this.options.ignoreDirs?.some((dir) => full === dir || full.startsWith(dir + path.sep))) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(full, (_event, name) => this.saw(folder, name));
    } catch (error) {
      // Without the top folder nothing is watched: that is the watcher failing, not a folder
      // gone. Elsewhere a folder gone already, or not a folder, is simply not watched.
      if (folder === '') this.options.onError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    watcher.on('error', () => this.unwatch(folder));
    this.watchers.set(folder, watcher);
  }

  private unwatch(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
  }

  private saw(folder: string, name: string | Buffer | null): void {
    if (this.closed || name === null) return;
    const relative = folder === '' ? name.toString() : `${folder}/${name.toString()}`;
    if (isGitPath(relative)) return;
    if (!this.watchers.has(relative)) void this.maybeWatchNew(relative);
    else if (!fs.existsSync(path.join(this.root, relative))) this.unwatch(relative);
    if (this.paused > 0) return;
    if (this.pending.size < maxPaths) this.pending.add(relative);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.settle(), this.options.debounceMs ?? 500);
  }

  /** A folder that just appeared (with whatever is already in it) is watched, unless ignored. */
  private async maybeWatchNew(relative: string): Promise<void> {
    const found: string[] = [];
    const walk = (folder: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(this.root, folder), { withFileTypes: true });
      } catch {
        return;
      }
      found.push(folder);
      for (const entry of entries) if (entry.isDirectory() && entry.name !== '.git' && found.length < 1_000) walk(`${folder}/${entry.name}`);
    };
    try {
      if (!fs.lstatSync(path.join(this.root, relative)).isDirectory()) return;
    } catch {
      return;
    }
    // An ignored folder that appears (node_modules, target/) is not walked at all: the walk is
    // synchronous, and such a folder can hold thousands of others.
    const noneIgnored = new Set<string>();
    if ((await this.options.ignored([relative]).catch(() => noneIgnored)).has(relative)) return;
    walk(relative);
    const ignored = await this.options.ignored(found).catch(() => noneIgnored);
    for (const folder of found) {
      const below = [...ignored].some((dir) => folder === dir || folder.startsWith(`${dir}/`));
      if (!below) this.watch(folder);
    }
  }

  private async settle(): Promise<void> {
    if (this.pending.size === 0 || this.paused > 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    const pauses = this.pauses;
    const ignored = await this.options.ignored(paths).catch(() => new Set<string>());
    if (this.closed || this.paused > 0 || this.pauses !== pauses) return;
    const kept = paths.filter((file) => !ignored.has(file));
    if (kept.length > 0) this.options.onSettled(kept);
  }

  /**
   * Stops reporting (changes meanwhile are dropped, and so is a burst being checked) until
   * the returned function is called. That function resumes once the events of what happened
   * meanwhile have been delivered (see fileEventsDelivered): a restore's own writes, however
   * late their events come, are never taken for edits.
   */
  pause(): () => Promise<void> {
    this.paused++;
    this.pauses++;
    clearTimeout(this.timer);
    this.pending.clear();
    let resumed: Promise<void> | undefined;
    return () =>
      (resumed ??= fileEventsDelivered(resumeDeadlineMs).then(() => {
        this.paused--;
      }));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    for (const folder of [...this.watchers.keys()]) this.unwatch(folder);
  }
}
