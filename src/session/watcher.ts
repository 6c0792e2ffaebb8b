import fs from 'node:fs';
import path from 'node:path';

export interface WatcherOptions {
  /** Quiet time after the last change before a burst counts as settled (ms). */
  debounceMs?: number;
  /** Folders (absolute) whose changes never count: rewind's own store when it is inside. */
  ignoreDirs?: readonly string[];
  onSettled: (paths: string[]) => void;
  onError: (error: Error) => void;
}

const maxPaths = 5_000;

/**
 * Watches the project (recursively, inotify on Linux) and reports each burst of changes
 * once it settles. `.git` folders are never reported. Paused while a restore writes.
 */
export class ChangeWatcher {
  private readonly watcher: fs.FSWatcher;
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private paused = 0;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly options: WatcherOptions,
  ) {
    this.watcher = fs.watch(root, { recursive: true }, (_event, file) => this.saw(file));
    this.watcher.on('error', (error) => {
      this.close();
      options.onError(error);
    });
  }

  private saw(file: string | Buffer | null): void {
    if (this.closed || this.paused > 0 || file === null) return;
    const relative = file.toString();
    if (relative === '.git' || relative.startsWith('.git/') || relative.includes('/.git/') || relative.endsWith('/.git')) return;
    const full = path.join(this.root, relative);
    if (this.options.ignoreDirs?.some((dir) => full === dir || full.startsWith(dir + path.sep))) return;
    if (this.pending.size < maxPaths) this.pending.add(relative);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.settle(), this.options.debounceMs ?? 500);
  }

  private settle(): void {
    if (this.pending.size === 0 || this.paused > 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    this.options.onSettled(paths);
  }

  /** Stops reporting until the returned function is called (changes meanwhile are dropped). */
  pause(): () => void {
    this.paused++;
    clearTimeout(this.timer);
    this.pending.clear();
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      this.paused--;
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher.close();
  }
}
