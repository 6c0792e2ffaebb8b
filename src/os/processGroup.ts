// Our git and sh processes run detached, each as the leader of its own process group, so
// a timeout can stop a script together with the git processes it started (killing only
// the sh would leave them running, holding index.lock in the shadow repo). Detached, they
// no longer get the Ctrl-C of the user's terminal: the groups still running when rewind
// exits or is stopped by a signal are killed here, so none of them outlives the process
// whose project lock they ran under (the next holder takes that lock for stale and clears
// the index.lock they would still hold).

import { setTimeout as sleep } from 'node:timers/promises';
import { groupRunning } from './processAlive.js';

const exitSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Leaders of the process groups still running. */
const live = new Set<number>();
let exitHookInstalled = false;
const watchers = new Set<(groups: readonly number[]) => void>();

/** The leaders of this process's groups that are still running. */
export function liveGroups(): number[] {
  return [...live];
}

/**
 * Calls `watcher` with the live groups whenever one starts or ends (the project lock
 * records them: a holder killed with SIGKILL cannot stop them, the next holder must).
 * Returns the function that stops the calls.
 */
export function watchGroups(watcher: (groups: readonly number[]) => void): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

function groupsChanged(): void {
  const groups = liveGroups();
  for (const watcher of watchers) watcher(groups);
}

/** Sends `signal` to the whole group; a group that is already gone is not an error. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** SIGKILL, not SIGTERM: rewind is going away and nothing of ours may run on after it. */
function killLive(): void {
  for (const pid of live) signalGroup(pid, 'SIGKILL');
  live.clear();
}

function onExitSignal(signal: NodeJS.Signals): void {
  killLive();
  removeSignalHooks();
  // Whoever else listens decides what the signal means; alone, we let it do what it
  // would have done without us (end the process).
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function removeSignalHooks(): void {
  for (const signal of exitSignals) process.off(signal, onExitSignal);
}

/**
 * Starts a group with `start` (a spawn with `detached: true`) and tracks it until
 * `untrackGroup`. The signal listeners go in before the spawn: a signal that came between
 * the spawn and them would end the process the default way, leaving the group running.
 */
export function trackGroup<T extends { pid?: number | undefined }>(start: () => T): T {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killLive);
  }
  // The signal listeners are there only while a group runs: a listener changes what a
  // signal does to the process, and the rest of the time that is not ours to change.
  if (live.size === 0) for (const signal of exitSignals) process.on(signal, onExitSignal);
  let child: T | undefined;
  try {
    child = start();
  } finally {
    if (child?.pid !== undefined) live.add(child.pid);
    else if (live.size === 0) removeSignalHooks();
  }
  if (child.pid !== undefined) groupsChanged();
  return child;
}

/** Stops tracking a group that has ended. */
export function untrackGroup(pid: number): void {
  if (!live.delete(pid)) return;
  groupsChanged();
  if (live.size === 0) removeSignalHooks();
}

/**
 * Stops a whole group: SIGTERM (git removes its lock files), then SIGKILL to whatever is
 * left after `graceMs`. Resolves once no process of the group runs, or a second after the
 * SIGKILL. A member that has ended but is not reaped yet (a zombie: an orphan waits for
 * init, which reaps every ~2 s on some machines and never in a container without one) runs
 * nothing and holds no lock, so it is not waited for.
 */
export async function stopGroup(pid: number, graceMs = 2_000): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  const killAt = Date.now() + graceMs;
  let killed = false;
  while (groupRunning(pid)) {
    if (!killed && Date.now() >= killAt) {
      signalGroup(pid, 'SIGKILL');
      killed = true;
    }
    if (killed && Date.now() >= killAt + 1_000) break;
    await sleep(10);
  }
  untrackGroup(pid);
}
