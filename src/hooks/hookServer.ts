import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { maxHookPayloadBytes } from '../shared/hookPayload.js';
import { appMark } from './appMark.js';

/** One hook call handed over by rewind-hook.sh: the agent, the event and its raw payload. */
export interface HookRequest {
  agent: string;
  event: string;
  /** The payload as the agent wrote it (JSON, unparsed: it may be anything), at most maxHookPayloadBytes of it. */
  payload: Buffer;
  /** Only the payload's head: it was longer than what is kept, or it did not end within the client's budget. */
  cut?: boolean;
}

/**
 * The app's answer to a hook call: a line for the hook's stderr (a string, as `stderr`), and
 * what the hook prints on its stdout for the agent to read (one line: a prompt hook's JSON
 * adding context, say). Nothing: the call goes on silently.
 */
export type HookReply = string | undefined | { stderr?: string; stdout?: string };

/**
 * The app's end of the hook channel: a private folder (0700; its name goes to the agent as
 * REWIND_SOCKET) holding a FIFO `in` that hook clients write one line to (`<pid> <agent>
 * <event>`, and ` cut` when the payload did not end in time), beside their payload `req.<pid>`
 * and their answer FIFO `ack.<pid>`, and the app's pid with its hook budget and start time (`pid`: so a client
 * can tell the app is gone, even once its pid is another process's). Each request is handled
 * in turn (`handle`: the snapshot); then `ok` goes back (with a line for the hook's stdout, if
 * `handle` gives one), and the client lets the tool run.
 */
export class HookServer {
  private readonly socket: net.Socket;
  private buffered = '';
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly dir: string,
    fd: number,
    private readonly handle: (request: HookRequest) => Promise<HookReply>,
  ) {
    // A FIFO opened read-write never reaches end-of-file when its writers come and go.
    this.socket = new net.Socket({ fd, readable: true, writable: false });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => this.receive(chunk));
    this.socket.on('error', () => undefined);
  }

  /** Opens a channel in a new private folder under `parent` (default: the system's temp folder). */
  static open(handle: (request: HookRequest) => Promise<HookReply>, parent = os.tmpdir()): HookServer {
    const dir = fs.mkdtempSync(path.join(parent, 'rewind-hooks-'));
    fs.chmodSync(dir, 0o700);
    const fifo = path.join(dir, 'in');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    fs.writeFileSync(path.join(dir, 'pid'), appMark(), { mode: 0o600 });
    const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    return new HookServer(dir, fd, handle);
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let end = this.buffered.indexOf('\n'); end >= 0; end = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      const match = /^(\d+) ([\w.-]+) ([\w.-]+)( cut)?$/.exec(line);
      if (!match) continue;
      const [, pid = '', agent = '', event = '', late] = match;
      // One request failing in a way of ours never stops the ones after it.
      this.queue = this.queue.then(() => this.serve(pid, agent, event, late !== undefined)).catch(() => undefined);
    }
  }

  /**
   * Handles one request, unless its client is gone (its answer FIFO no longer there: it gave
   * up waiting and snapshotted by itself, or died), and answers it whatever happens.
   */
  private async serve(pid: string, agent: string, event: string, late: boolean): Promise<void> {
    const ack = openAnswer(path.join(this.dir, `ack.${pid}`));
    if (ack === undefined) return;
    let said: HookReply;
    try {
      const { payload, cut } = readPayload(path.join(this.dir, `req.${pid}`));
      said = await this.handle({ agent, event, payload, cut: cut || late });
    } catch (error) {
      said = error instanceof Error ? error.message : String(error);
    } finally {
      // Answered whatever happened: the agent's tool never waits on a failure of ours.
      answer(ack, said);
    }
  }

  /** Stops listening and removes the folder (hook clients then snapshot by themselves). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A client's payload, as much of it as is kept; `cut` when it may be only the head (the
 * client copies at most maxHookPayloadBytes). Never opened in a way that waits (a FIFO put
 * in its place) or read past what is kept.
 */
function readPayload(file: string): { payload: Buffer; cut: boolean } {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch {
    return { payload: Buffer.alloc(0), cut: false };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path.basename(file)} is not a file`);
    const size = Math.min(stat.size, maxHookPayloadBytes);
    const bytes = Buffer.alloc(size);
    const read = fs.readSync(fd, bytes, 0, size, 0);
    return { payload: bytes.subarray(0, read), cut: stat.size >= maxHookPayloadBytes };
  } finally {
    fs.closeSync(fd);
  }
}

/** A client's answer FIFO, opened to write (it holds it open: the open does not wait); undefined when the client is gone. */
function openAnswer(fifo: string): number | undefined {
  try {
    return fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
}

/** The longest stdout line an answer carries, in bytes (a longer one is left out, never cut: it is JSON), so that the answer stays one short write. */
const maxStdoutBytes = 3000;

/**
 * Writes the answer to a client's answer FIFO, in one write, and closes it: `out:<the line for
 * the hook's stdout>` first if there is one, then `ok` (or `ok:<one line for its stderr>`).
 */
function answer(fd: number, said: HookReply): void {
  const { stderr, stdout } = typeof said === 'object' ? said : { stderr: said, stdout: undefined };
  const line = (text: string) => text.replace(/[\r\n]+/g, ' ');
  const out = stdout ? line(stdout) : '';
  try {
    fs.writeSync(fd, `${out && Buffer.byteLength(out) <= maxStdoutBytes ? `out:${out}\n` : ''}${stderr ? `ok:${line(stderr).slice(0, 1000)}` : 'ok'}\n`);
  } catch {
    // Gone meanwhile.
  } finally {
    fs.closeSync(fd);
  }
}
