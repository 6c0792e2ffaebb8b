import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../../os/processAlive.js';
import { splitNul } from '../git/git.js';
import { excludeMarker } from './excludeRules.js';
import type { ShadowRepo } from '../store/shadowRepo.js';

// Finds the files the heavy patterns leave out, so checkpoints can report them. It walks
// the whole tree, so after the first snapshot it runs in the background after a snapshot
// (one at a time, and at most one start every scanEveryMs), never on the hot path; a
// checkpoint reports what the last finished scan found.

export interface HeavyScanFiles {
  result: string;
  stamp: string;
  standardExclude: string;
}

/**
 * The least time from one start of the walk to the next. Snapshots a script or an agent takes
 * back to back (a `rewind snapshot` every half second) would otherwise each start a walk of
 * the whole tree beside the next snapshot: at 10,000 files ~50 ms of CPU, on the 2 cores the
 * snapshot itself runs on. A heavy file is then reported within a few seconds of the
 * checkpoint taken when it appeared, instead of on the very next one.
 */
const scanEveryMs = 5_000;

/** Whether the last walk still runs, or started less than scanEveryMs ago (its stamp's time: the script writes the pid when it starts one). */
function scanRunningOrRecent(stamp: string): boolean {
  let started: fs.Stats;
  let pid: number;
  try {
    started = fs.statSync(stamp);
    pid = Number(fs.readFileSync(stamp, 'utf8'));
  } catch {
    return false;
  }
  const age = Date.now() - started.mtimeMs;
  if (age >= 0 && age < scanEveryMs) return true;
  return pid > 0 && isAlive({ pid, host: os.hostname() });
}

/**
 * The files of a background scan for the snapshot script to start once its checkpoint is
 * written (snapshot.sh: it costs the process no spawn of its own), or undefined while the
 * last one still runs or started lately.
 */
export function heavyScanToStart(files: HeavyScanFiles): HeavyScanFiles | undefined {
  return scanRunningOrRecent(files.stamp) ? undefined : files;
}

/** The line of info/exclude where the generated part starts: patterns above it are the heavy ones. */
function markerLine(infoExclude: string): number {
  try {
    const lines = fs.readFileSync(infoExclude, 'utf8').split('\n');
    const index = lines.indexOf(excludeMarker);
    return index < 0 ? lines.length + 1 : index + 1;
  } catch {
    return 0;
  }
}

export interface HeavyScanResult {
  /** Untracked files the heavy patterns leave out: path -> bytes. */
  heavy: Record<string, number>;
  /** New untracked files over the size cap, caught before any snapshot reads them. */
  oversize: Record<string, number>;
}

/**
 * Takes a finished scan's result, if there is one. The result file is claimed by renaming
 * it, so a scan finishing meanwhile is not lost.
 */
export function collectHeavyScan(repo: ShadowRepo, files: HeavyScanFiles, maxFileBytes: number): HeavyScanResult | undefined {
  const claimed = `${files.result}.${process.pid}`;
  try {
    fs.renameSync(files.result, claimed);
  } catch {
    return undefined;
  }
  let fields: string[];
  try {
    fields = splitNul(fs.readFileSync(claimed));
  } finally {
    fs.rmSync(claimed, { force: true });
  }
  return classified(repo, fields, maxFileBytes);
}

/**
 * Which of these untracked files the heavy patterns leave out (one `check-ignore`, none
 * when there are no files): the first snapshot's files its add did not take.
 */
export async function heavyAmong(repo: ShadowRepo, files: readonly string[], maxFileBytes: number): Promise<Record<string, number>> {
  if (files.length === 0) return {};
  const checked = await repo.git(['check-ignore', '-z', '--stdin', '-v', '--non-matching'], { input: `${files.join('\0')}\0`, okCodes: [0, 1] });
  return classified(repo, splitNul(checked.stdout), maxFileBytes).heavy;
}

/** Reads `check-ignore -z -v --non-matching` output: the files each shadow rule leaves out. */
function classified(repo: ShadowRepo, fields: readonly string[], maxFileBytes: number): HeavyScanResult {
  const heavyUntil = markerLine(path.join(repo.gitDir, 'info', 'exclude'));
  const result: HeavyScanResult = { heavy: {}, oversize: {} };
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source = '', line = '', , file] = [fields[i], fields[i + 1], fields[i + 2], fields[i + 3]];
    if (!file || file.endsWith('/')) continue;
    const isHeavy = source.endsWith(path.join('info', 'exclude')) && Number(line) < heavyUntil;
    if (source !== '' && !isHeavy) continue;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(path.join(repo.project.root, file));
    } catch {
      continue;
    }
    if (!stat.isFile()) continue;
    if (isHeavy) result.heavy[file] = stat.size;
    else if (stat.size > maxFileBytes) result.oversize[file] = stat.size;
  }
  return result;
}
