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
  const checkpoints = await openForApp(options.cwd, config, options.env);
  const session = new SessionController({
    ...options,
    config,
    checkpoints,
    columns: stdout.columns || 80,
    rows: stdout.rows || 24,
    writeOuter: (data) => stdout.write(data),
  });
  await session.start();

  stdout.write('\x1b[?1049h\x1b[2J\x1b[H');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  const onInput = (chunk: string) => session.input(chunk);
  stdin.on('data', onInput);
  stdin.resume();
  // Ink and React load while the agent already runs (its output is emulated meanwhile).
  const { mountApp } = await import('./mountApp.js');
  const ink = mountApp(session, stdout, inertStdin());
  const onResize = () => session.resize(stdout.columns, stdout.rows);
  stdout.on('resize', onResize);

  let restored = false;
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    stdout.off('resize', onResize);
    stdin.off('data', onInput);
    ink.unmount();
    try {
      stdin.setRawMode(false);
    } catch {
      // The terminal is gone (SIGHUP): nothing to restore.
    }
    stdout.write(restoreTerminalSequence());
    stdin.pause();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void session.stop().finally(() => {
      restoreTerminal();
      process.exit(128 + (signalNumbers[signal] ?? 1));
    });
  };
  const onFatal = (error: unknown) => {
    restoreTerminal();
    process.stderr.write(`rewind: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    void session.stop().finally(() => process.exit(70));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  try {
    const exit = await session.exited;
    return exit.signal ? 128 + exit.signal : exit.exitCode;
  } finally {
    await session.stop();
    restoreTerminal();
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    process.off('uncaughtException', onFatal);
    process.off('unhandledRejection', onFatal);
  }
}
