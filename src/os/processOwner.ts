// A holder killed with SIGKILL between starting a process group and recording it in the
// lock's groups file leaves a group no file names (the child runs while Node has yet to
// write). So every process the engine starts carries, in its environment, the mark of
// the process that started it, and hands it down to what it starts: the lock's next
// holder finds them all in /proc (Linux; elsewhere only the groups file is there).

import fs from 'node:fs';
import { currentProcessMark, liveGroupOf, procPids, type ProcessMark } from './processAlive.js';

const ownerVariable = 'REWIND_OWNER';

function tagOf(mark: Pick<ProcessMark, 'pid' | 'start'>): string {
  return `${mark.pid}:${mark.start ?? ''}`;
}

/** `env` plus the mark of process `owner`. */
export function markedAs(owner: Pick<ProcessMark, 'pid' | 'start'>, env: Record<string, string>): Record<string, string> {
  return { ...env, [ownerVariable]: tagOf(owner) };
}

let own: ProcessMark | undefined;

/** `env` plus this process's mark, for a process the engine starts. */
export function withOwner(env: Record<string, string>): Record<string, string> {
  own ??= currentProcessMark();
  return markedAs(own, env);
}

/**
 * The process groups of the running processes that `mark`'s process started (directly or
 * through them), found by their environment. A mark without a start time matches none: a
 * bare pid could be anyone's by now.
 */
export function groupsStartedBy(mark: ProcessMark): number[] {
  if (mark.start === undefined) return [];
  const needle = Buffer.from(`\0${ownerVariable}=${tagOf(mark)}\0`);
  const own = liveGroupOf('self');
  const groups = new Set<number>();
  for (const pid of procPids() ?? []) {
    let environ: Buffer;
    try {
      // Entries end with NUL; one in front lets the first entry match too.
      environ = Buffer.concat([Buffer.from([0]), fs.readFileSync(`/proc/${pid}/environ`)]);
    } catch {
      continue; // Another user's, or gone meanwhile.
    }
    if (!environ.includes(needle)) continue;
    const group = liveGroupOf(pid);
    if (group !== undefined && group > 1 && group !== own) groups.add(group);
  }
  return [...groups];
}
