import fs from 'node:fs';
import { UserError } from '../errors.js';
import { writeFileAtomic } from './atomicFile.js';
import type { CheckpointRecord } from './record.js';

/**
 * checkpoints.jsonl: one checkpoint per line, oldest first, appended under the project
 * lock. A crash mid-append leaves a last line without its newline: that line never
 * happened (its ref is overwritten by the next snapshot). Any other unreadable line is
 * corruption, reported with the line number and what to do.
 */
export class CheckpointLog {
  constructor(readonly file: string) {}

  private parse(content: string): CheckpointRecord[] {
    const lines = content.split('\n');
    lines.pop(); // the torn line of a crashed append, or '' after the final newline
    const records: CheckpointRecord[] = [];
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        const record = JSON.parse(line) as CheckpointRecord;
        if (typeof record.id !== 'number' || typeof record.commit !== 'string') throw new Error('not a checkpoint');
        records.push(record);
      } catch {
        throw new UserError(`${this.file} is damaged at line ${index + 1}; move it aside (mv '${this.file}' '${this.file}.bad') and rewind rebuilds the list from the shadow repo`);
      }
    });
    return records;
  }

  /** Every checkpoint, oldest first. */
  readAll(): CheckpointRecord[] {
    let content: string;
    try {
      content = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return this.parse(content);
  }

  /** The newest checkpoint, read from the end of the file only. */
  last(): CheckpointRecord | undefined {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
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
    return this.parse(`${line}\n`)[0];
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
