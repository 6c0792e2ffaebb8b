// Whether this process is in its terminal's foreground: a process in the background that sets
// the terminal's mode (raw, to read the terminal's answers) or reads from it is stopped by the
// system (SIGTTOU, SIGTTIN) until someone brings it back: `rewind doctor &` must not be.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** This process's group and its terminal's foreground group: /proc on Linux, `ps` elsewhere (macOS). */
function groups(): { group: number; foreground: number } | undefined {
  try {
    // `pid (comm) state ppid pgrp session tty_nr tpgid …`; comm may hold spaces and parentheses.
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { group: Number(fields[2]), foreground: Number(fields[5]) };
  } catch {
    // No /proc: ask ps.
  }
  try {
    const [group, foreground] = execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], { encoding: 'utf8', timeout: 5_000 }).trim().split(/\s+/).map(Number);
    return group === undefined || foreground === undefined ? undefined : { group, foreground };
  } catch {
    return undefined;
  }
}

/** Whether this process's group is its terminal's foreground group (false when that cannot be told: then the terminal is left alone). */
export function inForeground(): boolean {
  const found = groups();
  return found !== undefined && Number.isInteger(found.group) && found.group > 0 && found.group === found.foreground;
}
