import fs from 'node:fs';
import os from 'node:os';

/** The fields of /proc/<pid>/stat after the command name (Linux), or undefined. */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces, so count from its ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** When a process started (Linux: clock ticks since boot, from /proc), to tell a reused pid apart. */
export function processStartTime(pid: number): string | undefined {
  // Field 22.
  return statFields(pid)?.[19];
}

export interface ProcessMark {
  pid: number;
  host: string;
  start?: string;
}

export function currentProcessMark(): ProcessMark {
  return { pid: process.pid, host: os.hostname(), start: processStartTime(process.pid) };
}

/** Whether `pid` is running (a negative pid: any process of that group); EPERM means it is, only not ours. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether any process of group `pgid` is still running: zombies (killed, not yet reaped,
 * as under a container's init that reaps nothing) do not count. Linux reads /proc; elsewhere
 * any member counts.
 */
export function groupRunning(pgid: number): boolean {
  if (!pidAlive(-pgid)) return false;
  const pids = procPids();
  if (pids === undefined) return true;
  return pids.some((pid) => liveGroupOf(pid) === pgid);
}

/** The pids /proc lists (Linux); undefined where there is no /proc. */
export function procPids(): number[] | undefined {
  try {
    return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return undefined;
  }
}

/** The process group of `pid` (field 5 of /proc/<pid>/stat), unless it is a zombie or gone. */
export function liveGroupOf(pid: number | 'self'): number | undefined {
  const fields = statFields(pid);
  // Fields 3 (state) and 5 (process group), counted from the command name's ')'.
  return fields === undefined || fields[0] === 'Z' ? undefined : Number(fields[2]);
}

/**
 * Whether the process that wrote a mark is still running (a zombie is not). A mark from
 * another host is assumed alive: there is no way to tell from here.
 */
export function isAlive(mark: ProcessMark): boolean {
  if (mark.host !== os.hostname()) return true;
  if (!pidAlive(mark.pid)) return false;
  const fields = statFields(mark.pid);
  // A zombie has ended (a container's init that reaps nothing keeps it listed forever).
  if (fields?.[0] === 'Z') return false;
  if (mark.start === undefined) return true;
  const start = fields?.[19];
  return start === undefined || start === mark.start;
}
