// Opening the transcript a hook payload names, which is untrusted: only a regular file of the
// user running Rewind, never through a symbolic link, and never in a way that can block (a
// FIFO opened for reading waits for a writer; a device may never end).
import fs from 'node:fs';
import path from 'node:path';
import { realPathOf } from '../shared/realPath.js';

/** A transcript Rewind will not read: the conversation is not kept, the checkpoint is still taken. */
export class TranscriptRefused extends Error {
  constructor(file: string, why: string) {
    super(`${file} ${why}: not read`);
    this.name = 'TranscriptRefused';
  }
}

export interface OpenTranscript {
  fd: number;
  size: number;
  /** Its real path, and which file it is (to read it again later, knowing it is still the same). */
  real: string;
  identity: { dev: number; ino: number };
}

function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * Opens the transcript at `file` for reading (its folders resolved to their real path first);
 * undefined when there is none (not written yet). Throws TranscriptRefused when it is a
 * symbolic link, not a regular file, another user's, or was moved while being opened.
 * Never blocks.
 */
export function openTranscript(file: string): OpenTranscript | undefined {
  const dir = realPathOf(path.dirname(file));
  const real = path.join(dir, path.basename(file));
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new TranscriptRefused(file, 'is a symbolic link');
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new TranscriptRefused(file, `is ${kindOf(stat)}`);
    const uid = process.geteuid?.();
    if (uid !== undefined && stat.uid !== uid) throw new TranscriptRefused(file, `belongs to another user (uid ${stat.uid})`);
    // What was opened is what stands at the real path now (no folder of it swapped for a link meanwhile).
    const there = fs.lstatSync(real, { throwIfNoEntry: false });
    if (!there || there.dev !== stat.dev || there.ino !== stat.ino || realPathOf(dir) !== dir) throw new TranscriptRefused(file, 'was moved while it was opened');
    return { fd, size: stat.size, real, identity: { dev: stat.dev, ino: stat.ino } };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}
