import fs from 'node:fs';
import path from 'node:path';
import type { ChangedPaths } from './changedPaths.js';
import type { IgnoreVerdicts } from './ignoreVerdicts.js';
import { fileEventsDelivered } from './watchFence.js';
import { inotifyWatchLimit, watchLimitMessage } from './watchLimit.js';
import { limitOf } from '../../shared/seams.js';

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
  /** At most this many folders are watched (one inotify watch each); `onFull` is told once
   * when more would be, or when the system has no watch left to give. */
  maxFolders?: number;
  onFull?: (message: string) => void;
  /** Told of every path that changes, at once (not only settled bursts): what a checkpoint stages. */
  changes?: ChangedPaths;
  /** Told of every path that changes, at once: its ignore verdict is asked again. */
  verdicts?: Pick<IgnoreVerdicts, 'forget'>;
}

const maxPaths = 5_000;
/** Folders a new folder's walk watches at once (the walk is synchronous). */
const newFoldersAtOnce = 1_000;
/** Folders watched at most, whatever the system allows (one inotify watch and one handle each). */
const ownFolderCap = 100_000;
/** How long a resume may wait for the file events of what happened while paused. */
const resumeDeadlineMs = 1_000;

function inodeOf(file: string): number | undefined {
  try {
    const stat = fs.lstatSync(file);
    return stat.isDirectory() ? stat.ino : undefined;
  } catch {
    return undefined;
  }
}

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
  /** The inode each watch is on: a watch follows its folder's inode, not its name (see watch). */
  private readonly inodes = new Map<string, number>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private paused = 0;
  /** Counts pauses: a burst whose check began before a pause is dropped. */
  private pauses = 0;
  private closed = false;
  private full = false;
  /** How many folders the project has, as far as known (those given, and those that appeared). */
  private known: number;
  /** The system's file watches per user (Linux inotify). */
  private readonly systemLimit = limitOf('watched-folders', inotifyWatchLimit() ?? Infinity);

  constructor(
    private readonly root: string,
    private readonly options: WatcherOptions,
  ) {
    this.known = options.folders.length + 1;
    this.watch('');
    for (const folder of options.folders) this.watch(folder);
  }

  /** How many folders are watched. */
  get size(): number {
    return this.watchers.size;
  }

  /** Watches these folders too (those a full scan found): a folder not watched yet is scanned whole until it is. */
  watchFolders(folders: readonly string[]): void {
    this.known = Math.max(this.known, folders.length + 1);
    for (const folder of folders) {
      if (this.watchers.has(folder) || this.closed) continue;
      this.options.changes?.folderAppeared(folder);
      this.watch(folder);
      this.options.changes?.watched(folder);
    }
  }

  /** No more folders can be watched: said once, and every checkpoint walks the whole tree from now on. */
  private fullUp(message: string): void {
    if (this.full) return;
    this.full = true;
    this.options.changes?.fullFromNowOn('not every folder is watched');
    this.options.onFull?.(message);
  }

  /**
   * Watches `folder`. A watch is on the folder's inode: once the folder is renamed or removed,
   * its watch (and those below it) would report what happens at the new place under the old
   * name, and a new folder of that name would go unwatched. So a name already watched on
   * another inode is watched again, and a folder that is gone is unwatched with everything
   * under it, and so is one whose name was created, removed or moved (see saw).
   */
  private watch(folder: string): void {
    if (this.closed || isGitPath(folder) || this.full) return;
    if (this.watchers.has(folder)) {
      if (this.inodes.get(folder) === inodeOf(path.join(this.root, folder))) return;
      this.unwatchTree(folder);
    }
    if (this.watchers.size >= (this.options.maxFolders ?? Math.min(ownFolderCap, this.systemLimit))) {
      this.fullUp(
        this.options.maxFolders === undefined && this.systemLimit <= ownFolderCap
          ? watchLimitMessage(this.watchers.size, this.known, this.systemLimit)
          : `watching ${this.watchers.size} of the project's ${this.known} folders only: every checkpoint walks the whole tree`,
      );
      return;
    }
    const full = path.join(this.root, folder);
    if (this.options.ignoreDirs?.some((dir) => full === dir || full.startsWith(dir + path.sep))) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(full, (event, name) => this.saw(folder, name, event));
    } catch (error) {
      // Without the top folder nothing is watched: that is the watcher failing, not a folder
      // gone. Out of watches (ENOSPC: the system's inotify limit), the folder's changes would
      // go unseen: said, and checkpoints walk everything. Elsewhere a folder gone already, or
      // not a folder, is simply not watched.
      const code = (error as NodeJS.ErrnoException).code;
      if (folder === '') this.options.onError(error instanceof Error ? error : new Error(String(error)));
      else if (code === 'ENOSPC' || code === 'EMFILE') this.fullUp(watchLimitMessage(this.watchers.size, this.known));
      return;
    }
    this.inodes.set(folder, inodeOf(full) ?? -1);
    watcher.on('error', () => {
      this.unwatch(folder);
      this.options.changes?.needFull(`the watch of ${folder || 'the top folder'} failed`);
    });
    this.watchers.set(folder, watcher);
  }

  private unwatch(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
    this.inodes.delete(folder);
  }

  /** Unwatches `folder` and every folder watched below it. */
  private unwatchTree(folder: string): void {
    for (const watched of [...this.watchers.keys()]) if (watched === folder || (folder === '' ? watched !== '' : watched.startsWith(`${folder}/`))) this.unwatch(watched);
  }

  private saw(folder: string, name: string | Buffer | null, event: string): void {
    if (this.closed || name === null) return;
    const relative = folder === '' ? name.toString() : `${folder}/${name.toString()}`;
    if (isGitPath(relative)) return;
    this.options.verdicts?.forget(relative);
    this.options.changes?.saw(relative);
    // A watched folder's name created, removed or moved ('rename'): its watch may be on
    // another inode now (a removed folder's number is soon given to a new one), so it is
    // watched again from scratch.
    const inode = inodeOf(path.join(this.root, relative));
    if (this.watchers.has(relative) && (event === 'rename' || this.inodes.get(relative) !== inode)) this.unwatchTree(relative);
    if (!this.watchers.has(relative) && inode !== undefined) void this.maybeWatchNew(relative);
    if (this.paused > 0) return;
    if (this.pending.size < maxPaths) this.pending.add(relative);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.settle(), this.options.debounceMs ?? 500);
  }

  /**
   * A folder that just appeared (with whatever is already in it) is watched, unless ignored;
   * until then every checkpoint scans it whole (ChangedPaths.folderAppeared).
   */
  private async maybeWatchNew(relative: string): Promise<void> {
    try {
      if (!fs.lstatSync(path.join(this.root, relative)).isDirectory()) return;
    } catch {
      return;
    }
    this.options.changes?.folderAppeared(relative);
    try {
      await this.watchNew(relative);
    } finally {
      this.options.changes?.watched(relative);
    }
  }

  private async watchNew(relative: string): Promise<void> {
    const found: string[] = [];
    const walk = (folder: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(this.root, folder), { withFileTypes: true });
      } catch {
        return;
      }
      found.push(folder);
      for (const entry of entries) if (entry.isDirectory() && entry.name !== '.git' && found.length < newFoldersAtOnce) walk(`${folder}/${entry.name}`);
    };
    // An ignored folder that appears (node_modules, target/) is not walked at all: the walk is
    // synchronous, and such a folder can hold thousands of others.
    const noneIgnored = new Set<string>();
    if ((await this.options.ignored([relative]).catch(() => noneIgnored)).has(relative)) return;
    walk(relative);
    this.known += found.length;
    // Folders past the walk's bound go unwatched for now: the next checkpoint walks the whole
    // tree, and every folder it finds is watched then (CheckpointTriggers).
    if (found.length >= newFoldersAtOnce) this.options.changes?.needFull('a folder with more folders than are watched at once appeared');
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
