// Every project's store under $REWIND_HOME/history: what `rewind checkpoints` lists and
// `rewind clean` deletes.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { diskUsage } from '../store/diskUsage.js';
import { withLock } from '../../os/lock.js';
import { interruptedJournal } from '../restore/journal.js';
import { historyDir } from '../store/store.js';

const deletingMark = '.deleting-';

/** One project's store. */
export interface StoreEntry {
  /** The store folder. */
  store: string;
  /** The project it keeps checkpoints of ('' when its project.json cannot be read). */
  project: string;
  /** Whether that project's folder still exists. */
  exists: boolean;
  bytes: number;
  checkpoints: number;
}

function projectOf(store: string): string {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(store, 'project.json'), 'utf8')) as { path?: unknown };
    return typeof record.path === 'string' ? record.path : '';
  } catch {
    return '';
  }
}

function countLines(file: string): number {
  let content: Buffer;
  try {
    content = fs.readFileSync(file);
  } catch {
    return 0;
  }
  let lines = 0;
  for (let at = content.indexOf(0x0a); at >= 0; at = content.indexOf(0x0a, at + 1)) lines++;
  return lines;
}

/** Every store under `home`, biggest first. */
export async function listStores(home: string): Promise<StoreEntry[]> {
  let names: string[];
  try {
    names = fs.readdirSync(historyDir(home));
  } catch {
    return [];
  }
  const entries: StoreEntry[] = [];
  for (const name of names) {
    // A store `rewind clean` was deleting when it was cut off: not a store any more.
    if (name.includes(deletingMark)) continue;
    const store = path.join(historyDir(home), name);
    try {
      if (!fs.lstatSync(store).isDirectory()) continue;
    } catch {
      continue;
    }
    const project = projectOf(store);
    entries.push({ store, project, exists: project !== '' && fs.existsSync(project), bytes: await diskUsage(store), checkpoints: countLines(path.join(store, 'checkpoints.jsonl')) });
  }
  return entries.sort((a, b) => b.bytes - a.bytes || a.store.localeCompare(b.store));
}

/** Why a store cannot be deleted now, if it cannot: a restore into its project was cut off (its journal finishes it). */
export function whyNotRemovable(entry: StoreEntry): string | undefined {
  if (!interruptedJournal(path.join(entry.store, 'journal'))) return undefined;
  return `a restore into ${entry.project || entry.store} was cut off: finish it first (run \`rewind restore\` there), then clean`;
}

/** Removes what a `rewind clean` that was cut off left under `home`. */
export function removeLeftovers(home: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(historyDir(home));
  } catch {
    return;
  }
  for (const name of names) if (name.includes(deletingMark)) fs.rmSync(path.join(historyDir(home), name), { recursive: true, force: true });
}

/**
 * Deletes a store of `home`, holding its lock (a running session's snapshot or restore
 * finishes first). A store with a restore that was cut off is refused: its journal is how
 * that restore is finished.
 */
export async function removeStore(home: string, entry: StoreEntry, lockWaitMs?: number): Promise<void> {
  if (path.dirname(entry.store) !== historyDir(home) || !fs.lstatSync(entry.store).isDirectory()) {
    throw new Error(`refusing to delete ${entry.store}: not a checkpoint store of ${home}`);
  }
  const why = whyNotRemovable(entry);
  if (why) throw new UserError(why);
  await withLock(path.join(entry.store, 'lock'), { purpose: 'delete the store', waitMs: lockWaitMs }, async () => {
    // Renamed aside first: a snapshot starting now finds no half-deleted store.
    const doomed = `${entry.store}${deletingMark}${process.pid}`;
    fs.renameSync(entry.store, doomed);
    fs.rmSync(doomed, { recursive: true, force: true });
  });
}
