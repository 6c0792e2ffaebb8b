import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Engine } from '../snapshot/engine.js';
import { isAlive } from '../../os/processAlive.js';
import { makeScratch } from '../store/scratchFolders.js';

/** Staged copies left at the project root (other file system) start with this. */
export const projectStagingPrefix = '.rewind-staging-';

/**
 * Where a restore stages its files: a rename is only atomic within one file system, so in
 * the store when it shares the project's, else in a hidden folder at the project root
 * (excluded from checkpoints, removed after, or by the next restore if one was cut off).
 */
export function stagingDirFor(engine: Engine): string {
  const name = `${process.pid}-${Date.now()}`;
  const sameDevice = fs.statSync(engine.store.root).dev === fs.statSync(engine.project.root).dev;
  return sameDevice ? path.join(engine.store.root, `${engine.store.stagingPrefix}${name}`) : path.join(engine.project.root, `${projectStagingPrefix}${name}`);
}

function removeDead(dir: string, prefix: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && !isAlive({ pid, host: os.hostname() })) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/** Removes staging and scratch folders of restores and previews whose process is gone. */
export function cleanStaleStaging(engine: Engine): void {
  removeDead(engine.store.root, engine.store.stagingPrefix);
  removeDead(engine.store.root, engine.store.scratchPrefix);
  removeDead(engine.project.root, projectStagingPrefix);
}


/**
 * Runs `work` with a new private folder (ignore rules of a checkpoint, a throwaway index):
 * in the store, or in the system's temp folder when the store cannot take one (read-only,
 * full). Removed afterwards, or by the next restore if this process dies first.
 */
export async function withScratch<T>(engine: Engine, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = makeScratch(engine);
  try {
    return await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
