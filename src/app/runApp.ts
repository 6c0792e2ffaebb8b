import { PassThrough } from 'node:stream';
import { UserError } from '../errors.js';
import { SessionController } from '../session/controller.js';
import { openForApp } from '../session/checkpointer.js';
import { restoreTerminalSequence } from '../pty/terminalModes.js';
import { loadConfigFast } from '../config/cachedConfig.js';

export interface RunAppOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const signalNumbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** A stdin for Ink that is never read: rewind reads the real one itself (FACTS: Input). */
function inertStdin(): NodeJS.ReadStream {
  const stream = new PassThrough() as unknown as NodeJS.ReadStream & { isTTY: boolean };
  stream.isTTY = true;
  stream.setRawMode = () => stream;
  stream.ref = () => stream;
  stream.unref = () => stream;
  return stream;
}

/**
 * Runs the agent in Rewind's full-screen app until it exits; returns its exit code. The
 * terminal is put back (raw mode off, cursor shown, alternate screen left, modes reset) on
 * every way out: the agent exits, /quit, SIGTERM or SIGHUP, an error.
 */
export async function runApp(options: RunAppOptions): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  if (!stdin.isTTY || !stdout.isTTY) {
    throw new UserError('rewind runs the agent in a full-screen terminal app: start it from a terminal (scripts can use `rewind snapshot` and `rewind restore`)');
  }
  const config = await loadConfigFast(options.env);
  const session = new SessionController({
    ...options,
    config,
    columns: stdout.columns || 80,
    rows: stdout.rows || 24,
    writeOuter: (data) => stdout.write(data),
  });
  await session.start();
  // The agent starts first; checkpoints are opened while it does.
  void openForApp(options.cwd, config, options.env).then((checkpoints) => session.attachCheckpoints(checkpoints));

  stdout.write('\x1b[?1049h\x1b[2J\x1b[H');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  const onInput = (chunk: string) => session.input(chunk);
  stdin.on('data', onInput);
  stdin.resume();
  // Ink and React load while the agent already runs (its output is emulated meanwhile); an
  // agent done before they are is never drawn at all.
  const loaded = await Promise.race([import('./mountApp.js'), session.exited.then(() => undefined)]);
  const ink = loaded ? loaded.mountApp(session, stdout, inertStdin()) : { unmount: () => undefined };
  const onResize = () => session.resize(stdout.columns, stdout.rows);
  stdout.on('resize', onResize);

  let restored = false;
  // Once the terminal is gone (SIGHUP, the window closed), writing to it fails with EIO:
  // nothing more is written, and those errors are not errors of ours.
  let terminalGone = false;
  const ignoreWriteErrors = () => undefined;
  stdout.on('error', ignoreWriteErrors);
  process.stderr.on('error', ignoreWriteErrors);
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    stdout.off('resize', onResize);
    stdin.off('data', onInput);
    if (terminalGone) return;
    ink.unmount();
    try {
      stdin.setRawMode(false);
    } catch {
      // The terminal went away meanwhile.
    }
    stdout.write(restoreTerminalSequence());
    stdin.pause();
  };
  let leaving = false;
  /** Stops the agent (bounded: a stuck one is killed), puts the terminal back, exits. */
  const leave = (code: number, message?: string) => {
    if (leaving) return;
    leaving = true;
    const stopped = Promise.race([session.stop(), new Promise((resolve) => setTimeout(resolve, 3_000))]);
    void stopped.finally(() => {
      restoreTerminal();
      if (terminalGone) {
        // Node's own exit resets a terminal that no longer exists and crashes doing so:
        // end the way a program whose terminal hung up does, by SIGHUP's default action.
        process.removeAllListeners('SIGHUP');
        process.kill(process.pid, 'SIGHUP');
        return;
      }
      if (message) process.stderr.write(message);
      process.exit(code);
    });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGHUP') terminalGone = true;
    leave(128 + (signalNumbers[signal] ?? 1));
  };
  const onFatal = (error: unknown) => {
    leave(70, `rewind: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  };
  const onTerminalClosed = () => {
    terminalGone = true;
    leave(129);
  };
  stdin.on('end', onTerminalClosed);
  stdin.on('error', onTerminalClosed);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  try {
    const exit = await session.exited;
    // A signal or error is already taking rewind down, with its own exit code.
    if (leaving) await new Promise<never>(() => undefined);
    return exit.signal ? 128 + exit.signal : exit.exitCode;
  } finally {
    await session.stop();
    restoreTerminal();
    stdin.off('end', onTerminalClosed);
    stdin.off('error', onTerminalClosed);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    process.off('uncaughtException', onFatal);
    process.off('unhandledRejection', onFatal);
  }
}
