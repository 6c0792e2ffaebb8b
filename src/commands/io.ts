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
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    stdinFd: 0,
    env: process.env,
    cwd: process.cwd(),
  };
}

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`);
}
