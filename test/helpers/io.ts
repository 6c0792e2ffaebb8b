import { Readable, Writable } from 'node:stream';
import { run } from '../../src/cli/main.js';
import type { CommandIO } from '../../src/commands/shared/io.js';
import { injectInProcess } from './inject.js';
import { shortened } from './shortened.mjs';

/** A Writable that keeps everything written to it. */
export function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** An in-memory CommandIO: empty stdin, collected stdout and stderr. */
export function memoryIO(env: NodeJS.ProcessEnv, cwd: string): { io: CommandIO; stdout: () => string; stderr: () => string } {
  const out = collector();
  const err = collector();
  return { io: { stdout: out.stream, stderr: err.stream, stdin: Readable.from([]), env, cwd }, stdout: out.text, stderr: err.text };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rewind ...argv` in-process. */
export async function rewind(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliResult> {
  const { io, stdout, stderr } = memoryIO(env, cwd);
  // The waits and clock a built rewind takes from these variables (seams.mjs), here in-process.
  const restore = injectInProcess(shortened(env));
  try {
    const code = await run(argv, io);
    return { code, stdout: stdout(), stderr: stderr() };
  } finally {
    restore();
  }
}
