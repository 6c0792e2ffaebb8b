import { createRequire } from 'node:module';
import { UserError, messageOf } from '../shared/errors.js';
import { DrainAtExit } from './drainAtExit.js';
import { resolveCommand } from './resolveCommand.js';

export { CommandNotFoundError } from './resolveCommand.js';

/** What a pty child ended with. `signal` is the number of the signal that killed it, 0 if none. */
export interface PtyExit {
  exitCode: number;
  signal: number;
}

/** How to start the child. */
export interface PtySpawnOptions {
  /** A name looked up on `env.PATH`, or a path (relative to `cwd`). */
  command: string;
  args?: readonly string[];
  /** Working directory; default `process.cwd()`. */
  cwd?: string;
  /** The child's whole environment; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  cols: number;
  rows: number;
  /** TERM for the child; default `xterm-256color`, what @xterm/headless emulates. */
  term?: string;
}

/** The members of a node-pty process this module uses (gemini-cli's getPty idea). */
interface PtyProcess {
  readonly pid: number;
  onData(listener: (data: Buffer) => void): unknown;
  onExit(listener: (event: { exitCode: number; signal?: number }) => void): unknown;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
}

type SpawnPty = (
  file: string,
  args: string[],
  options: { name: string; cols: number; rows: number; cwd: string; env: NodeJS.ProcessEnv; encoding: null },
) => PtyProcess;

let spawnPty: SpawnPty | undefined;

/**
 * Loads node-pty on first use, so that commands that never open a pane never load it. It is
 * CommonJS: required, not imported (no ESM wrapper to build, and the app bundle, a CommonJS
 * script, can load it too).
 */
function loadPty(): SpawnPty {
  if (spawnPty) return spawnPty;
  try {
    const nodePty = createRequire(import.meta.url)('@lydell/node-pty') as { spawn: unknown };
    // node-pty types its output as text whatever the encoding; with `encoding: null` it is bytes.
    spawnPty = nodePty.spawn as SpawnPty;
    return spawnPty;
  } catch (error) {
    throw new UserError(
      `The agent pane needs @lydell/node-pty, which failed to load (${messageOf(error)}). Run \`npm ci\` in Rewind's checkout again, on a platform node-pty supports.`,
      { cause: error },
    );
  }
}

/**
 * One child process in a pseudo-terminal. The only user of node-pty.
 *
 * Its output is drained at exit (see DrainAtExit): `onExit` listeners run after every byte
 * went to `onData` listeners.
 */
export class PtySession {
  /** The child's process id. */
  readonly pid: number;
  /** The absolute path of the program that was started. */
  readonly file: string;
  /** Settles when the child has exited and all of its output has been delivered. */
  readonly exited: Promise<PtyExit>;

  private readonly pty: PtyProcess;
  private readonly dataListeners = new Set<(data: Buffer) => void>();
  private readonly exitListeners = new Set<(exit: PtyExit) => void>();
  private backlog: Buffer[] = [];
  private exit: PtyExit | undefined;
  private resolveExited!: (exit: PtyExit) => void;
  private readonly drain: DrainAtExit;

  private constructor(pty: PtyProcess, file: string) {
    this.pty = pty;
    this.pid = pty.pid;
    this.file = file;
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
    this.drain = new DrainAtExit(pty);
    pty.onData((data) => this.handleData(data));
    pty.onExit((event) => this.handleExit(event));
  }

  /**
   * Starts `command` in a new pty of `cols` x `rows`.
   *
   * @throws CommandNotFoundError when the command does not exist or is not executable.
   */
  static async spawn(options: PtySpawnOptions): Promise<PtySession> {
    const cwd = options.cwd ?? process.cwd();
    const env = options.env ?? process.env;
    const file = await resolveCommand(options.command, env, cwd);
    const pty = loadPty()(file, [...(options.args ?? [])], {
      name: options.term ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd,
      env,
      // Bytes, not text: the emulator decodes UTF-8 itself (split sequences included), and a
      // flood is not turned into strings only to be turned back into code points.
      encoding: null,
    });
    return new PtySession(pty, file);
  }

  /**
   * Calls `listener` with each piece of the child's output (raw bytes), in order. Output that arrived
   * before the first listener is handed to that listener at once. Returns an unsubscribe.
   */
  onData(listener: (data: Buffer) => void): () => void {
    this.dataListeners.add(listener);
    if (this.backlog.length > 0) {
      const backlog = this.backlog;
      this.backlog = [];
      for (const data of backlog) listener(data);
    }
    return () => this.dataListeners.delete(listener);
  }

  /**
   * Calls `listener` once when the child has exited, after all its output went to `onData`.
   * A listener added after the exit is called in a microtask. Returns an unsubscribe.
   */
  onExit(listener: (exit: PtyExit) => void): () => void {
    const exit = this.exit;
    if (exit !== undefined) {
      queueMicrotask(() => listener(exit));
      return () => undefined;
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** The exit status once the child has exited (and its output was delivered). */
  get exitStatus(): PtyExit | undefined {
    return this.exit;
  }

  /** Sends input to the child (keys, pastes, terminal answers). Ignored after the exit. */
  write(data: string | Uint8Array): void {
    if (this.exit === undefined) this.pty.write(data);
  }

  /** Tells the child its window is now `cols` x `rows` (SIGWINCH). Ignored after the exit. */
  resize(cols: number, rows: number): void {
    if (this.exit !== undefined) return;
    this.pty.resize(Math.max(1, Math.floor(cols)), Math.max(1, Math.floor(rows)));
  }

  /** Sends `signal` (default SIGHUP, as a closing terminal would) to the child. */
  kill(signal: NodeJS.Signals = 'SIGHUP'): void {
    if (this.exit === undefined) this.pty.kill(signal);
  }

  /**
   * Ends the child: SIGHUP (interactive shells ignore SIGTERM, not SIGHUP), then SIGKILL to
   * its whole process group if it is still alive after `graceMs`. Resolves with its exit.
   */
  async terminate(graceMs = 1500): Promise<PtyExit> {
    if (this.exit !== undefined) return this.exit;
    this.kill('SIGHUP');
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), graceMs);
    });
    const exit = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (exit !== undefined) return exit;
    this.killGroup('SIGKILL');
    return this.exited;
  }

  private killGroup(signal: NodeJS.Signals): void {
    try {
      // The child leads its own session and process group (forkpty), so -pid reaches the
      // commands it started too.
      process.kill(-this.pid, signal);
    } catch {
      this.pty.kill(signal);
    }
  }

  private handleData(data: Buffer): void {
    this.drain.sawData();
    if (this.dataListeners.size === 0) {
      this.backlog.push(data);
      return;
    }
    for (const listener of [...this.dataListeners]) listener(data);
  }

  private handleExit(event: { exitCode: number; signal?: number }): void {
    if (this.exit !== undefined) return;
    this.drain.exited();
    const exit: PtyExit = { exitCode: event.exitCode, signal: event.signal ?? 0 };
    this.exit = exit;
    this.resolveExited(exit);
    for (const listener of [...this.exitListeners]) listener(exit);
    this.exitListeners.clear();
  }
}
