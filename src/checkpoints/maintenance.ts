import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { isAlive } from './processAlive.js';
import type { ShadowRepo } from './shadowRepo.js';

/**
 * Removes what a crashed git left behind in the shadow repo. Called while holding the
 * project lock: every git that writes the shadow's index or refs runs under that lock,
 * so a lock file found now belongs to a process that is gone. Temporary packs are only
 * removed when no `git gc` is running.
 */
export function clearStaleGitLocks(repo: ShadowRepo): string[] {
  const removed: string[] = [];
  for (const name of ['index.lock', 'packed-refs.lock', 'HEAD.lock', 'config.lock', 'shallow.lock']) {
    const file = path.join(repo.gitDir, name);
    if (fs.existsSync(file)) {
      fs.rmSync(file, { force: true });
      removed.push(name);
    }
  }
  if (!gcRunning(repo)) {
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
  }
  return removed;
}

/** Removes a stale `<ref>.lock` named in a git error, if the error was about one. */
export function clearStaleRefLock(repo: ShadowRepo, stderr: string): boolean {
  const match = /Unable to create '([^']+\.lock)': File exists/.exec(stderr);
  if (!match?.[1] || !path.resolve(match[1]).startsWith(repo.gitDir + path.sep)) return false;
  fs.rmSync(match[1], { force: true });
  return true;
}

function gcRunning(repo: ShadowRepo): boolean {
  try {
    const [pid, host] = fs.readFileSync(path.join(repo.gitDir, 'gc.pid'), 'utf8').trim().split(' ');
    return isAlive({ pid: Number(pid), host: host ?? os.hostname() });
  } catch {
    return false;
  }
}

/**
 * Starts `git gc --auto` in the background, detached: never waited for on the hot path.
 * If it fails (objects borrowed from the project were pruned, so the chain cannot be
 * walked), it leaves a marker; the next `rewind list` or app start repairs the chain.
 */
export function startBackgroundGc(repo: ShadowRepo, marker: string): void {
  try {
    const script = 'git --git-dir="$1" gc --auto --quiet 2>/dev/null || : >"$2"';
    const child = spawn('sh', ['-c', script, 'rewind-gc', repo.gitDir, marker], {
      cwd: repo.store.root,
      env: repo.env,
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Maintenance is best effort; the next trigger tries again.
  }
}
