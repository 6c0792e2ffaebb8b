import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { writeFileAtomic } from '../../shared/atomicFile.js';
import { explainStoreError } from './storeErrors.js';
import type { CheckpointRecord } from './record.js';

/** The (up to) 256 bytes of an open file before `end`. */
function lastBytes(fd: number, end: number): Buffer {
  const bytes = Buffer.alloc(Math.min(256, end));
  fs.readSync(fd, bytes, 0, bytes.length, end - bytes.length);
  return bytes;
}

/** Whether the open file's bytes before `end` are still `tail`. */
function endsAs(fd: number, end: number, tail: Buffer): boolean {
  return lastBytes(fd, end).equals(tail);
}

/**
 * checkpoints.jsonl: one checkpoint per line, oldest first, appended under the project
 * lock. A crash mid-append leaves a last line without its newline: that line never
 * happened (its ref is overwritten by the next snapshot). Any other unreadable line is
 * corruption, reported with the line number and what to do.
 */
export class CheckpointLog {
  /**
   * What was parsed last: the file (inode, mtime), how much of it, its last bytes, and the
   * records. A rewrite (pruning) may reuse the inode: the last bytes tell an append from it.
   */
  private cache: { ino: number; mtimeMs: number; size: number; tail: Buffer; records: CheckpointRecord[] } | undefined;

  constructor(readonly file: string) {}

  private damaged(line: number): UserError {
    return new UserError(`${this.file} is damaged at line ${line}; move it aside (mv '${this.file}' '${this.file}.bad') and rewind rebuilds the list from the shadow repo`);
  }

  /** A list rewind may not read (another user's store, say), as one line that says what to do. */
  private unreadable(error: unknown): unknown {
    const store = path.dirname(this.file);
    return explainStoreError(error, store, path.join(store, 'repo.git'));
  }

  /** Parses whole lines (a last line without its newline is a crashed append: skipped). */
  private parse(content: string, firstLine = 1): CheckpointRecord[] {
    const records: CheckpointRecord[] = [];
    let line = firstLine;
    for (let start = 0; ; line++) {
      const end = content.indexOf('\n', start);
      if (end < 0) return records;
      if (end > start) {
        let record: CheckpointRecord;
        try {
          record = JSON.parse(content.slice(start, end)) as CheckpointRecord;
        } catch {
          throw this.damaged(line);
        }
        if (typeof record?.id !== 'number' || typeof record.commit !== 'string') throw this.damaged(line);
        records.push(record);
      }
      start = end + 1;
    }
  }

  /** Whether the list file exists. */
  exists(): boolean {
    return fs.existsSync(this.file);
  }

  /**
   * Every checkpoint, oldest first. Appends since the last read are parsed alone: the app
   * lists after every snapshot, and a long history is megabytes of JSON.
   */
  readAll(): CheckpointRecord[] {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw this.unreadable(error);
    }
    try {
      const { ino, size, mtimeMs } = fs.fstatSync(fd);
      const cached = this.cache;
      const same = cached !== undefined && cached.ino === ino && cached.size <= size && endsAs(fd, cached.size, cached.tail);
      if (same && cached.size === size && cached.mtimeMs === mtimeMs) return [...cached.records];
      if (same && cached.size < size) {
        const added = Buffer.alloc(size - cached.size);
        fs.readSync(fd, added, 0, added.length, cached.size);
        const text = added.toString('utf8');
        const complete = text.lastIndexOf('\n') + 1;
        const records = [...cached.records, ...this.parse(text.slice(0, complete), cached.records.length + 1)];
        const end = cached.size + Buffer.byteLength(text.slice(0, complete));
        this.cache = { ino, mtimeMs, size: end, tail: lastBytes(fd, end), records };
        return [...records];
      }
      const content = Buffer.alloc(size);
      fs.readSync(fd, content, 0, size, 0);
      const text = content.toString('utf8');
      const records = this.parse(text);
      const end = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
      this.cache = { ino, mtimeMs, size: end, tail: lastBytes(fd, end), records };
      return [...records];
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The newest checkpoint, read from the end of the file only. */
  last(): CheckpointRecord | undefined {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw this.unreadable(error);
    }
    let text: string;
    let whole: boolean;
    try {
      const size = fs.fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 65_536));
      fs.readSync(fd, tail, 0, tail.length, size - tail.length);
      text = tail.toString('utf8');
      whole = tail.length === size;
    } finally {
      fs.closeSync(fd);
    }
    const end = text.lastIndexOf('\n');
    const start = end < 0 ? -1 : text.lastIndexOf('\n', end - 1);
    const line = end < 0 ? '' : text.slice(start + 1, end);
    if ((start < 0 && !whole) || line.trim() === '') return whole && end < 0 ? undefined : this.readAll().at(-1);
    try {
      return this.parse(`${line}\n`)[0];
    } catch {
      // Damaged: the whole read reports it with its real line number.
      return this.readAll().at(-1);
    }
  }

  /** Appends one checkpoint; a torn last line from a crash is cut off first. */
  append(record: CheckpointRecord): void {
    const line = `${JSON.stringify(record)}\n`;
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fs.writeFileSync(this.file, line, { mode: 0o600, flag: 'wx' });
      return;
    }
    try {
      const size = fs.fstatSync(fd).size;
      let at = size;
      if (size > 0) {
        const tail = Buffer.alloc(Math.min(size, 65_536));
        fs.readSync(fd, tail, 0, tail.length, size - tail.length);
        if (tail[tail.length - 1] !== 0x0a) {
          const lastNewline = tail.lastIndexOf(0x0a);
          at = lastNewline < 0 ? size - tail.length : size - tail.length + lastNewline + 1;
          fs.ftruncateSync(fd, at);
        }
      }
      fs.writeSync(fd, line, at);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Replaces the whole list atomically (pruning, repair). */
  rewrite(records: readonly CheckpointRecord[]): void {
    writeFileAtomic(this.file, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  }
}
