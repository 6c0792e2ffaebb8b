import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { maxHookPayloadBytes } from '../shared/hookPayload.js';

/** One hook call handed over by rewind-hook.sh: the agent, the event and its raw payload. */
export interface HookRequest {
  agent: string;
  event: string;
  /** The payload as the agent wrote it (JSON, unparsed: it may be anything). */
  payload: Buffer;
}


/**
 * The app's end of the hook channel: a private folder (0700; its name goes to the agent as
 * REWIND_SOCKET) holding a FIFO `in` that hook clients write one line to (`<pid> <agent>
 * <event>`), beside their payload `req.<pid>` and their answer FIFO `ack.<pid>`, and the
 * app's pid (so a client can tell the app is gone). Each request is handled in turn
 * (`handle`: the snapshot); then `ok` goes back, and the client lets the tool run.
 */
export class HookServer {
  private readonly socket: net.Socket;
  private buffered = '';
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly dir: string,
    fd: number,
    private readonly handle: (request: HookRequest) => Promise<string | undefined>,
  ) {
    // A FIFO opened read-write never reaches end-of-file when its writers come and go.
    this.socket = new net.Socket({ fd, readable: true, writable: false });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => this.receive(chunk));
    this.socket.on('error', () => undefined);
  }

  /** Opens a channel in a new private folder under `parent` (default: the system's temp folder). */
  static open(handle: (request: HookRequest) => Promise<string | undefined>, parent = os.tmpdir()): HookServer {
    const dir = fs.mkdtempSync(path.join(parent, 'rewind-hooks-'));
    fs.chmodSync(dir, 0o700);
    const fifo = path.join(dir, 'in');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    fs.writeFileSync(path.join(dir, 'pid'), `${process.pid}\n`, { mode: 0o600 });
    const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    return new HookServer(dir, fd, handle);
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let end = this.buffered.indexOf('\n'); end >= 0; end = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      const match = /^(\d+) ([\w.-]+) ([\w.-]+)$/.exec(line);
      if (!match) continue;
      const [, pid = '', agent = '', event = ''] = match;
      // One request failing in a way of ours never stops the ones after it.
      this.queue = this.queue.then(() => this.serve(pid, agent, event)).catch(() => undefined);
    }
  }

  /**
   * Handles one request, unless its client is gone (its answer FIFO no longer there: it gave
   * up waiting and snapshotted by itself, or died), and answers it whatever happens.
   */
  private async serve(pid: string, agent: string, event: string): Promise<void> {
    const ack = openAnswer(path.join(this.dir, `ack.${pid}`));
    if (ack === undefined) return;
    let said: string | undefined;
    try {
      said = await this.handle({ agent, event, payload: readPayload(path.join(this.dir, `req.${pid}`)) });
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

function readPayload(file: string): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const size = Math.min(fs.fstatSync(fd).size, maxHookPayloadBytes);
    const bytes = Buffer.alloc(size);
    fs.readSync(fd, bytes, 0, size, 0);
    return bytes;
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

/** Writes `ok` (or `ok:<one line for the hook's stderr>`) to a client's answer FIFO, and closes it. */
function answer(fd: number, said: string | undefined): void {
  try {
    fs.writeSync(fd, said ? `ok:${said.replace(/[\r\n]+/g, ' ').slice(0, 1000)}\n` : 'ok\n');
  } catch {
    // Gone meanwhile.
  } finally {
    fs.closeSync(fd);
  }
}
