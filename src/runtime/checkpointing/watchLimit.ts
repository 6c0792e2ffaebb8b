import fs from 'node:fs';

/** The system's limit on file watches per user (Linux inotify), or undefined where there is none to read. */
export function inotifyWatchLimit(): number | undefined {
  try {
    const limit = Number(fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim());
    return Number.isInteger(limit) && limit > 0 ? limit : undefined;
  } catch {
    return undefined;
  }
}

/** What to tell the user when the system gives no more watches: how many were had, the limit, the command that raises it. */
export function watchLimitMessage(watched: number, folders: number, limit = inotifyWatchLimit()): string {
  const of = limit === undefined ? '' : ` (the system allows ${limit} per user: raise it with \`sudo sysctl fs.inotify.max_user_watches=${Math.max(524_288, limit * 2)}\`)`;
  return `out of file watches: ${watched} of the project's ${folders} folders watched${of}; every checkpoint walks the whole tree`;
}
