import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { hookStdinBudgetMs } from '../shared/hookPayload.js';

/**
 * When process `pid` started, as rewind-hook.sh reads it to tell the app from a later
 * process given the same pid: on Linux field 22 of /proc/<pid>/stat (clock ticks since
 * boot), elsewhere `ps -o lstart=` (its words, one space apart). Undefined when neither says.
 */
export function processStart(pid: number): string | undefined {
  let stat: string | undefined;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    stat = undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count from its last ')'.
  if (stat !== undefined) return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  try {
    const start = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/).join(' ');
    return start === '' ? undefined : start;
  } catch {
    return undefined;
  }
}

/**
 * The channel folder's `pid` entry, one line: `<pid> <budget> <start>`, the app's pid, how long
 * its hook client reads a payload (ms: hookStdinBudgetMs) and when the app started (left out
 * when it cannot be read).
 */
export function appMark(pid = process.pid): string {
  const start = processStart(pid);
  const budget = hookStdinBudgetMs();
  return start === undefined ? `${pid} ${budget}\n` : `${pid} ${budget} ${start}\n`;
}
