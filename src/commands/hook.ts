// `rewind hook <agent> <event>`: what an agent's hook runs when the app is not there to
// answer it (hooks/rewind-hook.sh hands calls to the app when it is). Always exits 0.
import { readSync } from 'node:fs';
import { writeLine, type CommandIO } from './io.js';
import { standaloneHook } from '../runtime/standaloneHook.js';
import { maxHookPayloadBytes } from '../shared/hookPayload.js';

const help = `Usage: rewind hook <agent> <event>   (the hook's JSON payload on stdin)

What an agent's hook runs before a step (a tool call that can change files, a prompt):
a checkpoint of the project first. Rewind adds these hooks itself when it runs the agent
(\`rewind -- claude\`); run on its own with them, the agent gets its checkpoints from here.
Never blocks or changes the agent's step: problems are one line on stderr, the exit code is
always 0.

Examples:
  echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}' | rewind hook claude PreToolUse`;

/**
 * Stdin whole (an agent's payload; a huge one is read through and cut, nothing blocks). The
 * process's own stdin is read from its descriptor first, without the stream Node would build
 * (and the turns of the event loop it takes); a descriptor that would block (non-blocking,
 * EAGAIN) goes on through the stream, after what was read.
 */
function readStdin(io: CommandIO): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (io.stdinFd !== undefined) {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      let read: number;
      try {
        read = readSync(io.stdinFd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
        return Promise.resolve(Buffer.concat(chunks));
      }
      if (read === 0) return Promise.resolve(Buffer.concat(chunks));
      if (size < maxHookPayloadBytes) chunks.push(Buffer.from(buffer.subarray(0, Math.min(read, maxHookPayloadBytes - size))));
      size += read;
    }
  }
  return readStream(io.stdin, chunks, size);
}

/** The rest of `stdin` after `chunks` (`size` bytes read so far), as readStdin keeps it. */
function readStream(stdin: NodeJS.ReadableStream, chunks: Buffer[], size: number, max = maxHookPayloadBytes): Promise<Buffer> {
  return new Promise((resolve) => {
    stdin.on('data', (chunk: Buffer | string) => {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (size < max) chunks.push(bytes.subarray(0, max - size));
      size += bytes.length;
    });
    stdin.on('error', () => resolve(Buffer.concat(chunks)));
    stdin.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    writeLine(io.stdout, help);
    return 0;
  }
  const [agent = 'generic', event = ''] = argv;
  const warn = (line: string) => writeLine(io.stderr, `rewind: ${line}`);
  try {
    const payload = await readStdin(io);
    await standaloneHook({ agent, event, payload, env: io.env, cwd: io.cwd, warn });
  } catch (error) {
    // Never a failed step for the agent: even our own bug is a line on stderr here.
    warn(`internal error in the hook (please report it): ${error instanceof Error ? error.message : String(error)}`);
  }
  return 0;
}
