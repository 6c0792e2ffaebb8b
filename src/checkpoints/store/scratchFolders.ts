// The scratch folders of a store (bisect's test folder, a fork's index, a preview's rules):
// named after the process that made them, pid and start time, so that what a killed Rewind
// left is removed by the next command, and a live process keeps its own even when another,
// dead one had the same pid before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive, processStartTime } from '../../os/processAlive.js';
import type { StorePaths } from './store.js';

/** `scratch-<pid>-<start>-`: what mkdtemp appends its six characters to. */
export function scratchNamePrefix(store: StorePaths): string {
  return `${store.scratchPrefix}${process.pid}-${processStartTime(process.pid) ?? 'x'}-`;
}

/**
 * Removes the store's scratch folders whose process has ended: its pid is gone, or is now
 * another process's (another start time). Older names (`scratch-<pid>-XXXXXX`) are judged by
 * the pid alone. Never throws: a folder it cannot remove now is tried again next time.
 */
export function removeDeadScratch(store: StorePaths): void {
  let names: string[];
  try {
    names = fs.readdirSync(store.root);
  } catch {
    return;
  }
  const pattern = new RegExp(`^${store.scratchPrefix}(\\d+)-(?:(\\d+|x)-)?[A-Za-z0-9]{6}$`);
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match) continue;
    const start = match[2] === undefined || match[2] === 'x' ? undefined : match[2];
    if (isAlive({ pid: Number(match[1]), host: os.hostname(), start })) continue;
    try {
      removeScratch(path.join(store.root, name));
    } catch {
      // A folder a test made unwritable, say: the next command tries again (and restore's own cleanup).
    }
  }
}

/**
 * A new private scratch folder (0700), named so the next command removes it if this process
 * dies first (`scratchNamePrefix`, in the store), or in the system's temp folder when the
 * store cannot take one.
 */
export function makeScratch(engine: { store: StorePaths }): string {
  try {
    return fs.mkdtempSync(path.join(engine.store.root, scratchNamePrefix(engine.store)));
  } catch {
    return fs.mkdtempSync(path.join(os.tmpdir(), `rewind-${engine.store.scratchPrefix}`));
  }
}

/** Removes a scratch folder, whatever a test left in it (read-only folders included). */
export function removeScratch(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A folder a test made unwritable: make it writable, then remove it.
    makeWritable(dir);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

function makeWritable(dir: string): void {
  try {
    fs.chmodSync(dir, 0o700);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) makeWritable(path.join(dir, entry.name));
    }
  } catch {
    // Not ours to fix: rmSync says what is left.
  }
}
