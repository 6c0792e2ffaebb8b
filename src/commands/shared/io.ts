/** Where a command writes: the process's streams in production, buffers in tests. */
export interface CommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The file descriptor behind `stdin` when it is the process's own (0): read without a stream. */
  stdinFd?: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type CommandMain = (argv: string[], io: CommandIO) => Promise<number>;

/**
 * The process's own streams, each made when a command first uses it: Node builds a stream
 * (and loads its modules) on the first read of process.stdin, and `rewind snapshot` never
 * reads it.
 */
export function processIO(): CommandIO {
  return {
    get stdout() {
      return quietWhenClosed(process.stdout);
    },
    get stderr() {
      return quietWhenClosed(process.stderr);
    },
    get stdin() {
      return process.stdin;
    },
    stdinFd: 0,
    env: process.env,
    cwd: process.cwd(),
  };
}

const quieted = new WeakSet<NodeJS.WriteStream>();

/**
 * A reader that stops reading (`rewind list | head -1`) closes the pipe: what is left to print
 * goes nowhere, and the command finishes as it would have (a restore is never cut short by it),
 * instead of dying on EPIPE with a stack trace.
 */
function quietWhenClosed(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (quieted.has(stream)) return stream;
  quieted.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
  return stream;
}

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`);
}
