import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import { isAlive } from '../../os/processAlive.js';
import { engineScript } from '../../shared/bundles.js';
import { startDetached } from '../git/git.js';
import { withoutKeptHeap } from '../git/gitEnv.js';
import type { ShadowRepo } from './shadowRepo.js';

/** What the background `git gc` may hold while it runs (it packs refs and expires reflogs). */
const gcLocks = new Set(['packed-refs.lock', 'HEAD.lock']);

/**
 * Removes what a crashed git left behind in the shadow repo. Called while holding the
 * project lock: every git of ours that writes the shadow's index or refs runs under that
 * lock, so a lock file found now belongs to a process that is gone, except the background
 * `git gc` and retention's reclaim, which run without it: while either runs (`gcLive`), the
 * locks it takes and the temporary packs it writes are left alone (and the packs a reclaim
 * took out, which one cut off leaves in the store's trash until now).
 */
export function clearStaleGitLocks(repo: ShadowRepo, gcLive = gcRunning(repo)): string[] {
  const removed: string[] = [];
  for (const name of ['index.lock', 'packed-refs.lock', 'HEAD.lock', 'config.lock', 'shallow.lock']) {
    const file = path.join(repo.gitDir, name);
    if (gcLive && gcLocks.has(name)) continue;
    if (fs.existsSync(file)) {
      fs.rmSync(file, { force: true });
      removed.push(name);
    }
  }
  if (!gcLive) {
    const packDir = path.join(repo.gitDir, 'objects', 'pack');
    let names: string[] = [];
    try {
      names = fs.readdirSync(packDir);
    } catch {
      // No pack folder yet.
    }
    for (const name of names) {
      if (name.startsWith('tmp_pack_') || name.startsWith('tmp_idx_') || name.startsWith('tmp_rev_')) {
        fs.rmSync(path.join(packDir, name), { force: true });
        removed.push(`objects/pack/${name}`);
      }
    }
    if (fs.existsSync(repo.store.reclaimTrash)) {
      fs.rmSync(repo.store.reclaimTrash, { recursive: true, force: true });
      removed.push(path.relative(repo.gitDir, repo.store.reclaimTrash));
    }
  }
  return removed;
}

/**
 * What else a crash leaves (called by retention, not on every snapshot: it walks every
 * loose ref): a ref's own lock (`refs/checkpoints/12.lock`), which would fail every update
 * of that ref, and git fast-import's crash reports. Under the project lock; not while gc runs.
 */
export function clearCrashLeftovers(repo: ShadowRepo, gcLive = gcRunning(repo)): string[] {
  if (gcLive) return [];
  const removed: string[] = [];
  for (const lock of refLocks(path.join(repo.gitDir, 'refs'))) {
    fs.rmSync(lock, { force: true });
    removed.push(path.relative(repo.gitDir, lock));
  }
  for (const name of fs.readdirSync(repo.gitDir).filter((entry) => entry.startsWith('fast_import_crash_'))) {
    fs.rmSync(path.join(repo.gitDir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

function refLocks(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return refLocks(full);
    return entry.name.endsWith('.lock') ? [full] : [];
  });
}

/**
 * Clears the way for a ref update that failed on a `<ref>.lock` named in git's error:
 * a lock of a git that is gone is removed; one the background `git gc` may hold (it
 * expires reflogs and packs refs without our project lock) is waited out for up to
 * `gcWaitMs`, and removed only if it is still there once gc has ended (retention is not
 * waited for: without the project lock it locks no ref but its own pruneRef). Returns
 * whether the update is worth trying again.
 */
export async function clearRefLock(repo: ShadowRepo, stderr: string, gcWaitMs = 15_000): Promise<boolean> {
  const lock = /Unable to create '([^']+\.lock)': File exists/.exec(stderr)?.[1];
  return lock !== undefined && clearRefLockFile(repo, lock, gcWaitMs);
}

/** clearRefLock for a lock file known by its path. */
export async function clearRefLockFile(repo: ShadowRepo, lock: string, gcWaitMs = 15_000): Promise<boolean> {
  if (!path.resolve(lock).startsWith(repo.gitDir + path.sep)) return false;
  const deadline = Date.now() + gcWaitMs;
  while (gcRunning(repo) && !reclaimHoldsGc(repo)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  fs.rmSync(lock, { force: true });
  return true;
}

/** Whether the gc.pid holder is retention (takeGcLock), which locks no ref but its own pruneRef outside the project lock. */
function reclaimHoldsGc(repo: ShadowRepo): boolean {
  try {
    return fs.readFileSync(path.join(repo.gitDir, 'gc.pid'), 'utf8') === fs.readFileSync(repo.store.reclaiming, 'utf8');
  } catch {
    return false;
  }
}

/** git itself takes a gc.pid older than this for one a killed gc left (builtin/gc.c). */
const gcPidMaxAgeMs = 12 * 60 * 60 * 1000;

/** Whether a `git gc`, or retention's reclaim (takeGcLock), is at work on the shadow now. */
export function gcRunning(repo: ShadowRepo): boolean {
  try {
    const file = path.join(repo.gitDir, 'gc.pid');
    // A killed gc's file, its pid since reused, would otherwise pass for a live gc forever.
    if (Date.now() - fs.statSync(file).mtimeMs > gcPidMaxAgeMs) return false;
    const [pid, host] = fs.readFileSync(file, 'utf8').trim().split(' ');
    return isAlive({ pid: Number(pid), host: host ?? os.hostname() });
  } catch {
    return false;
  }
}

/** A `gc.pid.lock` older than this was left by a git that died taking it (git holds it for a moment). */
const gcPidLockMaxAgeMs = 10_000;

/**
 * Takes git's own gc lock on the shadow for a retention pass (its drop and reclaim work in
 * steps, partly without the project lock: retention/pruneStore.ts, reclaim.ts), as `git gc`
 * takes it (`gc.pid` through `gc.pid.lock`, holding `<pid> <host>`), waiting up to `waitMs`
 * for a gc that runs (the background one, or another process's retention). While it is
 * held, a background `git gc --auto` started by a snapshot finds it and does nothing, and
 * gcRunning is true (a snapshot's clearStaleGitLocks leaves the reclaim's temporary packs
 * alone); the `reclaiming` file names the same holder, so a snapshot does not wait for it
 * on a ref lock (without the project lock it locks no ref but its own pruneRef). Returns
 * its release, or undefined when a gc still ran at the deadline.
 */
export async function takeGcLock(repo: ShadowRepo, waitMs: number): Promise<(() => void) | undefined> {
  const pidFile = path.join(repo.gitDir, 'gc.pid');
  const lockFile = `${pidFile}.lock`;
  const mine = `${process.pid} ${os.hostname()}\n`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (!gcRunning(repo) && takeGcPidLock(lockFile)) {
      // As git does: the pid file is looked at again once its lock is ours.
      if (!gcRunning(repo)) {
        fs.writeFileSync(repo.store.reclaiming, mine, { mode: 0o600 });
        fs.writeFileSync(lockFile, mine);
        fs.renameSync(lockFile, pidFile);
        return () => {
          try {
            if (fs.readFileSync(pidFile, 'utf8') === mine) fs.rmSync(pidFile, { force: true });
          } catch {
            // Gone already.
          }
          fs.rmSync(repo.store.reclaiming, { force: true });
        };
      }
      fs.rmSync(lockFile, { force: true });
    }
    if (Date.now() >= deadline) return undefined;
    await sleep(50);
  }
}

function takeGcPidLock(lockFile: string): boolean {
  try {
    fs.closeSync(fs.openSync(lockFile, 'wx', 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    if (Date.now() - fs.statSync(lockFile).mtimeMs > gcPidLockMaxAgeMs) fs.rmSync(lockFile, { force: true });
  } catch {
    // Released meanwhile.
  }
  return false;
}

/**
 * Starts `git gc --auto` in the background, detached: never waited for on the hot path.
 * If it fails (objects borrowed from the project were pruned, so the chain cannot be
 * walked), it leaves a marker; the next `rewind list` or app start repairs the chain.
 * Returns its pid (undefined: it could not be started).
 */
export function startBackgroundGc(repo: ShadowRepo, marker: string): number | undefined {
  return startDetached('sh', [engineScript('background.sh'), 'gc', repo.gitDir, marker], { cwd: repo.store.root, env: withoutKeptHeap(repo.env) });
}
