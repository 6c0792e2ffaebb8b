import { fileEventsDelivered } from './watchFence.js';

/** More distinct paths than this since the last checkpoint: a full scan is cheaper and surely exact. */
const maxPaths = 5_000;
/** How long a checkpoint waits for the file events of what happened before it. */
const fenceDeadlineMs = 1_000;

/** What a checkpoint stages: these paths only, or (undefined) the whole tree, and why. */
export interface Scope {
  paths?: string[];
  /** Why the whole tree is walked (undefined when `paths` is given). */
  full?: string;
}

/**
 * The paths that changed since the last checkpoint, as the file watcher saw them, so that
 * a checkpoint stages those and walks nothing else (SnapshotOptions.paths). It never rests
 * on the watcher alone: whenever the watcher may have missed something the next checkpoint
 * walks the whole tree (`needFull`: the session's first, after a restore, too many changes
 * at once, a folder the watcher could not watch), and for good once it cannot be trusted
 * at all (`fullFromNowOn`: the watcher is off or full, or the system's file events are not
 * known to come in order). A folder that appeared is scanned whole by every checkpoint
 * until its watch is in place, and once more after: what was written in it before the
 * watch is found by the scan.
 */
export class ChangedPaths {
  private paths = new Set<string>();
  private fullReason: string | undefined = 'the session starts';
  private alwaysFull: string | undefined = process.platform === 'linux' ? undefined : 'file events on this system are not known to arrive in order';
  private readonly unwatched = new Set<string>();

  /** A path (project-relative) the watcher saw change. */
  saw(relative: string): void {
    if (this.paths.size >= maxPaths) this.fullReason ??= `more than ${maxPaths} paths changed at once`;
    else this.paths.add(relative);
  }

  /** A folder appeared: scanned whole until `watched` says its watch is in place. */
  folderAppeared(relative: string): void {
    this.unwatched.add(relative);
  }

  /** The folder that appeared is watched now (or never will be: ignored, gone): scanned once more, then as the watcher says. */
  watched(relative: string): void {
    if (this.unwatched.delete(relative)) this.saw(relative);
  }

  /** The next checkpoint walks the whole tree. */
  needFull(reason: string): void {
    this.fullReason ??= reason;
  }

  /** Every checkpoint from now on walks the whole tree. */
  fullFromNowOn(reason: string): void {
    this.alwaysFull ??= reason;
  }

  /**
   * What the next checkpoint stages, once every file event of what happened before this call
   * has arrived; the set starts again from empty. Give it back (`giveBack`) if the
   * checkpoint was not taken.
   */
  async take(): Promise<Scope> {
    const ordered = this.alwaysFull === undefined && this.fullReason === undefined ? await fileEventsDelivered(fenceDeadlineMs) : true;
    const full = this.alwaysFull ?? this.fullReason ?? (ordered ? undefined : 'the file events did not arrive in time');
    const paths = [...this.paths, ...this.unwatched];
    this.paths = new Set();
    this.fullReason = undefined;
    return full === undefined ? { paths } : { full };
  }

  /** A checkpoint that was not taken: what it would have staged is staged by the next. */
  giveBack(scope: Scope): void {
    if (scope.full !== undefined) this.needFull(scope.full);
    for (const file of scope.paths ?? []) this.saw(file);
  }

  /** Whether nothing changed since the last checkpoint, as far as the watcher knows. */
  get quiet(): boolean {
    return this.paths.size === 0 && this.unwatched.size === 0 && this.fullReason === undefined;
  }
}
