import { spawn } from 'node:child_process';
import { signalGroup } from '../../os/processGroup.js';

/** How one run of the user's command ended. */
export interface TestOutcome {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines it printed (stdout and stderr together). */
  tail: string;
}

const tailBytes = 4096;

/** The groups of the user's commands still running: killed if rewind exits before they end. */
const running = new Set<number>();
let exitHook = false;

function killRunning(): void {
  for (const pid of running) signalGroup(pid, 'SIGKILL');
  running.clear();
}

/**
 * Runs the user's command (`argv`: one word is a shell command line, as `git bisect run`
 * takes it; more are a program and its arguments) in `cwd`, in its own process group, so
 * that an abort (Ctrl-C on rewind) stops it and everything it started. Its output is kept,
 * not shown (`onOutput` sees it as it comes).
 */
export function runUserCommand(
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; signal?: AbortSignal; onOutput?: (chunk: Buffer) => void },
): Promise<TestOutcome> {
  const [file, ...args] = argv.length === 1 ? ['sh', '-c', argv[0] as string] : argv;
  if (!exitHook) {
    exitHook = true;
    process.on('exit', killRunning);
  }
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const child = spawn(file as string, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    let tail = Buffer.alloc(0);
    const keep = (chunk: Buffer) => {
      options.onOutput?.(chunk);
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > tailBytes * 2) tail = tail.subarray(tail.length - tailBytes);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const stop = () => {
      if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      options.signal?.removeEventListener('abort', stop);
      if (pid !== undefined) running.delete(pid);
      reject(error);
    });
    let ended: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    child.on('exit', (code, signal) => {
      ended = { code, signal };
      // What the command left running in its group (a server it started) goes with it:
      // it would hold the output pipes open, and the folder it runs in is removed next.
      if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    });
    child.on('close', () => {
      options.signal?.removeEventListener('abort', stop);
      if (pid !== undefined) running.delete(pid);
      const text = tail.subarray(Math.max(0, tail.length - tailBytes)).toString('utf8');
      resolve({ ...ended, tail: text });
    });
  });
}
