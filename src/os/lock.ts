import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../shared/errors.js';
import { currentProcessMark, groupRunning, isAlive, processStartTime, type ProcessMark } from './processAlive.js';
import { liveGroups, signalGroup, watchGroups } from './processGroup.js';
import { groupsStartedBy } from './processOwner.js';

/** How long a command waits for another's lock before it says so. */
const waitNoticeMs = 1_000;

export interface LockOptions {
  /** What the holder is doing, shown to whoever waits. */
  purpose: string;
  /** How long to wait for another holder before giving up (ms). */
  waitMs?: number;
  /** Told once when a live holder is being waited for: who it is, and for how long at most (ms). */
  onWait?: (holder: string, waitMs: number) => void;
}

interface LockContent extends ProcessMark {
  purpose: string;
  since: string;
}

export type Release = () => void;

const inProcess = new Map<string, Promise<void>>();

/** Who holds lock `file`, as it says (undefined: none, or unreadable); whether it still runs is isAlive's question. */
export function readLock(file: string): LockContent | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    // A bare pid (as other tools write) is a holder on this machine.
    if (typeof parsed === 'number') return { pid: parsed, host: os.hostname(), purpose: 'unknown', since: '' };
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as LockContent).pid === 'number') {
      return { host: os.hostname(), purpose: 'unknown', since: '', ...(parsed as Partial<LockContent>) } as LockContent;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(file: string, content: LockContent): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeFileSync(fd, JSON.stringify(content));
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Removes a lock whose holder died. The lock is first renamed to a name of our own, so
 * of several processes breaking the same stale lock only one succeeds; if what it took
 * turns out to be a fresh lock (taken between our read and the rename), it is put back.
 */
function breakStale(file: string, seen: string): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return;
  }
  const taken = fs.readFileSync(aside, 'utf8');
  if (taken === seen) {
    fs.rmSync(aside, { force: true });
    return;
  }
  try {
    fs.linkSync(aside, file);
  } catch {
    // Someone created a new lock meanwhile; theirs stands, ours was already broken.
  }
  fs.rmSync(aside, { force: true });
}


/**
 * Takes the project's cross-process lock (a file created with O_EXCL holding our pid), so
 * snapshots and restores from the app, hooks and other terminals never interleave. A lock
 * left by a dead process is broken; a live holder is waited for up to `waitMs`.
 */
export async function acquireLock(file: string, options: LockOptions): Promise<Release> {
  const previous = inProcess.get(file) ?? Promise.resolve();
  let releaseLocal!: () => void;
  const mine = new Promise<void>((resolve) => (releaseLocal = resolve));
  const chained = previous.then(() => mine);
  inProcess.set(file, chained);
  await previous;

  const content: LockContent = { ...currentProcessMark(), purpose: options.purpose, since: new Date().toISOString() };
  const waitMs = options.waitMs ?? 30_000;
  const started = Date.now();
  const deadline = started + waitMs;
  let toldWait = false;
  const queue = `${file}.queue`;
  let ticket: string | undefined;
  let delay = 2;
  try {
    for (;;) {
      if (waitersAhead(queue, ticket) === 0 && tryCreate(file, content)) break;
      const raw = (() => {
        try {
          return fs.readFileSync(file, 'utf8');
        } catch {
          return undefined;
        }
      })();
      const holder = raw === undefined ? undefined : readLock(file);
      if (raw !== undefined && (holder === undefined ? isOldGarbage(file) : !isAlive(holder))) {
        // Its git processes may still run (a holder killed with SIGKILL cannot stop them):
        // they go first, or they would write the shadow's index and refs under the new holder.
        await stopOrphanedGroups(groupsFile(file), holder);
        breakStale(file, raw);
        continue;
      }
      // Waiters take the lock in the order they came: a busy stream of snapshots from a
      // hook cannot starve a restore waiting in another terminal.
      ticket ??= takeTicket(queue, content);
      const who = holder ? `pid ${holder.pid}, ${holder.purpose}, since ${holder.since}` : 'unknown holder';
      // Said once the wait is felt (a hook's snapshot and the app's take turns all the time).
      if (holder && !toldWait && Date.now() - started >= Math.min(waitNoticeMs, waitMs / 2)) {
        toldWait = true;
        options.onWait?.(who, waitMs);
      }
      if (Date.now() >= deadline) {
        throw new UserError(`another rewind is working on this project (${who}); try again when it is done, or remove ${file} if no rewind is running`);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 50);
    }
  } catch (error) {
    releaseLocal();
    if (inProcess.get(file) === chained) inProcess.delete(file);
    throw error;
  } finally {
    if (ticket) fs.rmSync(path.join(queue, ticket), { force: true });
  }

  const stopRecording = recordGroups(groupsFile(file));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    stopRecording();
    try {
      const now = fs.readFileSync(file, 'utf8');
      if (now === JSON.stringify(content)) fs.rmSync(file, { force: true });
    } catch {
      // Already gone: nothing to release.
    }
    releaseLocal();
    if (inProcess.get(file) === chained) inProcess.delete(file);
  };
}

/** Where a lock's holder lists the process groups it has running: `<lock>.groups`. */
function groupsFile(lock: string): string {
  return `${lock}.groups`;
}

interface RecordedGroup {
  pid: number;
  start?: string;
}

/** The groups file: whose it is (several breakers of one dead holder's lock may race), and its groups. */
interface GroupsRecord {
  owner: ProcessMark;
  groups: RecordedGroup[];
}

/**
 * While the lock is held, keeps `file` listing this process's running process groups (each
 * git or sh it starts leads one), with their start times; removes it when stopped.
 */
function recordGroups(file: string): () => void {
  const owner = currentProcessMark();
  const write = (groups: readonly number[]) => {
    const record: GroupsRecord = { owner, groups: groups.map((pid) => ({ pid, start: processStartTime(pid) })) };
    try {
      if (groups.length === 0) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
    } catch {
      // The lock's folder is gone (the store was removed): nothing left to protect.
    }
  };
  write(liveGroups());
  const stop = watchGroups(write);
  return () => {
    stop();
    fs.rmSync(file, { force: true });
  };
}

const sameProcess = (a: ProcessMark, b: ProcessMark) => a.pid === b.pid && a.host === b.host && a.start === b.start;

/**
 * The groups `holder` recorded, still running as it started them (a leader alive with another
 * start time is someone else's, its pid reused); undefined when the file is not `holder`'s
 * (another breaker of the same lock took it since, and records its own live groups there).
 */
function groupsRecordedBy(file: string, holder: ProcessMark): number[] | undefined {
  let record: Partial<GroupsRecord>;
  try {
    record = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<GroupsRecord>;
  } catch {
    return undefined;
  }
  if (typeof record?.owner !== 'object' || record.owner === null || !sameProcess(record.owner, holder) || !Array.isArray(record.groups)) return undefined;
  return record.groups
    .filter((group) => typeof group?.pid === 'number' && group.pid > 1 && groupRunning(group.pid))
    .filter((group) => {
      const start = processStartTime(group.pid);
      return start === undefined || group.start === undefined || start === group.start;
    })
    .map((group) => group.pid);
}

/** Rounds of looking for a dead holder's processes: one it forked just before it died carries its mark only once it has exec'd. */
const orphanScans = 5;

/**
 * Stops the process groups a dead holder left running, and waits until they are gone: those
 * its groups file names, and those whose processes carry its mark (one it started but had no
 * time to record before it was killed). Looks again after each round, and at least twice.
 */
async function stopOrphanedGroups(file: string, holder: ProcessMark | undefined): Promise<void> {
  if (!holder) return;
  const recorded = groupsRecordedBy(file, holder);
  const stopped = new Set<number>();
  for (let round = 0; round < orphanScans; round++) {
    const found = [...(round === 0 ? (recorded ?? []) : []), ...groupsStartedBy(holder)].filter((group) => !stopped.has(group));
    if (found.length === 0 && round > 0) break;
    for (const group of found) {
      signalGroup(group, 'SIGKILL');
      stopped.add(group);
    }
    const deadline = Date.now() + 5_000;
    while (found.some(groupRunning) && Date.now() < deadline) await sleep(5);
    if (found.length === 0) await sleep(20);
  }
  // The file stays: the lock's next holder writes its own there (or removes it) as it takes
  // the lock, and removing it here could remove that holder's record instead.
}

let tickets = 0;

/** Joins the queue of waiters: a file named so that names sort in arrival order. */
function takeTicket(queue: string, content: LockContent): string {
  fs.mkdirSync(queue, { recursive: true, mode: 0o700 });
  const name = `${String(Date.now()).padStart(15, '0')}-${String(process.pid).padStart(10, '0')}-${String(++tickets).padStart(6, '0')}`;
  fs.writeFileSync(path.join(queue, name), JSON.stringify(content), { mode: 0o600 });
  return name;
}

/** Live waiters ahead of `ticket` (all of them when we have none yet); dead ones are removed. */
function waitersAhead(queue: string, ticket: string | undefined): number {
  let names: string[];
  try {
    names = fs.readdirSync(queue);
  } catch {
    return 0;
  }
  let ahead = 0;
  for (const name of names) {
    if (ticket !== undefined && name >= ticket) continue;
    const waiter = readLock(path.join(queue, name));
    if (waiter && isAlive(waiter)) ahead++;
    else if (waiter || isOldGarbage(path.join(queue, name))) fs.rmSync(path.join(queue, name), { force: true });
  }
  return ahead;
}

/** A lock file we cannot parse is a crash mid-write; treat it as stale after a moment. */
function isOldGarbage(file: string): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > 2_000;
  } catch {
    return false;
  }
}

/** Runs `work` holding the project's lock. */
export async function withLock<T>(file: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const release = await acquireLock(file, options);
  try {
    return await work();
  } finally {
    release();
  }
}
