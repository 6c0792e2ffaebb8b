// A hook's payload from its stdin, within the hook's budget whatever stdin is: a pipe that
// never ends or keeps trickling, /dev/zero, a file that keeps growing.
import { fstatSync, readSync } from 'node:fs';
import type { CommandIO } from '../shared/io.js';
import { maxHookPayloadBytes } from '../../shared/hookPayload.js';

export interface HookStdin {
  /** What came, at most maxHookPayloadBytes of it. */
  bytes: Buffer;
  /** Only the head of the payload: it was as long as what is kept or longer, or it did not end in time. */
  cut: boolean;
  /** It did not end within the budget: the hook goes on with what came. */
  late: boolean;
}

/** Keeps the first maxHookPayloadBytes of what is read. */
class Head {
  private readonly chunks: Buffer[] = [];
  size = 0;

  add(bytes: Buffer): void {
    if (this.size < maxHookPayloadBytes) this.chunks.push(Buffer.from(bytes.subarray(0, maxHookPayloadBytes - this.size)));
    this.size += bytes.length;
  }

  result(late: boolean): HookStdin {
    return { bytes: Buffer.concat(this.chunks), cut: late || this.size >= maxHookPayloadBytes, late };
  }
}

/**
 * The payload on stdin, read until it ends or `budgetMs` has passed. A regular file (the
 * payload's copy the hook client hands on) is read from its descriptor, without the stream
 * Node would build; anything else (a pipe, a device) through the stream, which a timer can
 * stop: a read from its descriptor could block past any deadline. What comes past the kept
 * head is read through and dropped, so that the agent writing it is never left blocked.
 */
export function readHookStdin(io: CommandIO, budgetMs: number): Promise<HookStdin> {
  const head = new Head();
  const deadline = Date.now() + budgetMs;
  if (io.stdinFd !== undefined && isRegularFile(io.stdinFd)) {
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    // A file is read to its end or the kept head's, never past the budget if it keeps growing.
    while (head.size < maxHookPayloadBytes) {
      if (Date.now() > deadline) return Promise.resolve(head.result(true));
      let read: number;
      try {
        read = readSync(io.stdinFd, buffer, 0, buffer.length, null);
      } catch {
        break;
      }
      if (read === 0) break;
      head.add(buffer.subarray(0, read));
    }
    return Promise.resolve(head.result(false));
  }
  return readStream(io.stdin, head, deadline);
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

function readStream(stdin: CommandIO['stdin'], head: Head, deadline: number): Promise<HookStdin> {
  return new Promise((resolve) => {
    let finished = false;
    const done = (late: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      resolve(head.result(late));
      // Nothing more is read: a stdin left open would keep the process from ending.
      if (late) (stdin as Partial<{ destroy(): void }>).destroy?.();
    };
    const onData = (chunk: Buffer | string) => head.add(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const timer = setTimeout(() => done(true), Math.max(0, deadline - Date.now()));
    stdin.on('data', onData);
    stdin.once('error', () => done(false));
    stdin.once('end', () => done(false));
  });
}
