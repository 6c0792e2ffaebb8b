import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { childProcess } from '../../os/childProcess.js';
import { GitError } from './git.js';
import { withOwner } from '../../os/processOwner.js';

/** An object read from the store, or `missing`. */
export type ObjectRead = { oid: string; type: string; size: number; data: Buffer } | { oid: string; missing: true };

interface Pending {
  oid: string;
  resolve: (value: ObjectRead) => void;
  reject: (error: Error) => void;
}

/**
 * One long-lived `git cat-file --batch` (or `--batch-check`): requests are pipelined, so
 * reading thousands of objects costs one process, not thousands. Answers come back in
 * request order; `missing` is an answer, not an error.
 */
export class ObjectReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private parts: Buffer[] = [];
  private length = 0;
  private body: { oid: string; type: string; size: number } | undefined;
  private failure: Error | undefined;
  private stderr = '';

  constructor(
    gitArgs: readonly string[],
    options: { cwd: string; env: Record<string, string> },
    private readonly withContents = true,
  ) {
    this.child = childProcess().spawn('git', [...gitArgs, 'cat-file', withContents ? '--batch' : '--batch-check'], { cwd: options.cwd, env: withOwner(options.env) });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdin.on('error', (error) => this.fail(error));
    this.child.on('error', (error) => this.fail(error));
    this.child.on('close', (code) => this.fail(new GitError(['cat-file'], code, this.stderr, 'git cat-file stopped')));
  }

  /** Reads (or with --batch-check, looks up) one object. */
  read(oid: string): Promise<ObjectRead> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ oid, resolve, reject });
      this.child.stdin.write(`${oid}\n`);
    });
  }

  /** Ends the process; pending reads are answered first. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('close', () => resolve());
      this.child.stdin.end();
    });
  }

  private fail(error: Error): void {
    if (this.queue.length === 0 && error instanceof GitError && error.code === 0) return;
    this.failure ??= error;
    for (const pending of this.queue.splice(0)) pending.reject(this.failure);
  }

  /** Joins what has arrived into one buffer (only when a header or a whole body is there). */
  private flatten(): Buffer {
    if (this.parts.length !== 1) this.parts = [Buffer.concat(this.parts, this.length)];
    return this.parts[0] ?? Buffer.alloc(0);
  }

  private consume(bytes: number): void {
    const rest = this.flatten().subarray(bytes);
    this.parts = [rest];
    this.length = rest.length;
  }

  private receive(chunk: Buffer): void {
    this.parts.push(chunk);
    this.length += chunk.length;
    for (;;) {
      const pending = this.queue[0];
      if (!pending) return;
      if (!this.body) {
        const buffer = this.flatten();
        const newline = buffer.indexOf(0x0a);
        if (newline < 0) return;
        const [oid = '', type = '', size = ''] = buffer.subarray(0, newline).toString('utf8').split(' ');
        this.consume(newline + 1);
        if (type === 'missing' || type === 'ambiguous') {
          this.queue.shift();
          pending.resolve({ oid: pending.oid, missing: true });
          continue;
        }
        if (!this.withContents) {
          this.queue.shift();
          pending.resolve({ oid, type, size: Number(size), data: Buffer.alloc(0) });
          continue;
        }
        this.body = { oid, type, size: Number(size) };
      }
      if (this.length < this.body.size + 1) return;
      const data = Buffer.from(this.flatten().subarray(0, this.body.size));
      this.consume(this.body.size + 1);
      const { oid, type, size } = this.body;
      this.body = undefined;
      this.queue.shift();
      pending.resolve({ oid, type, size, data });
    }
  }
}

/** One entry of a tree object. */
export interface TreeObjectEntry {
  mode: string;
  name: string;
  oid: string;
}

/** Parses a tree object's binary content: `<mode> <name>\0<20-byte oid>` repeated. */
export function parseTreeObject(data: Buffer): TreeObjectEntry[] {
  const entries: TreeObjectEntry[] = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const nul = data.indexOf(0x00, space);
    if (space < 0 || nul < 0 || nul + 21 > data.length) break;
    entries.push({
      mode: data.subarray(at, space).toString('latin1').padStart(6, '0'),
      name: data.subarray(space + 1, nul).toString('utf8'),
      oid: data.subarray(nul + 1, nul + 21).toString('hex'),
    });
    at = nul + 21;
  }
  return entries;
}
