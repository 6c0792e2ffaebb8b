// A private tmux server as a test's terminal: its own socket in a temp folder, no config
// file, windows of a fixed size running one command each; keys sent as typed, panes read back
// with their attributes (capture-pane -e). Nothing of the user's tmux is touched.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a pane shows: its rows as tmux captures them (SGR escapes, SO/SI around DEC graphics cells) and its cursor. */
export interface PaneCapture {
  rows: string[];
  cursor: { x: number; y: number; visible: boolean };
}

export interface TmuxWindow {
  cols: number;
  rows: number;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** argv of the one program the window runs. */
  command: readonly string[];
}

/** Quotes `arg` for the shell tmux runs a window's command with. */
function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

export class TmuxServer {
  private readonly socket: string;

  /** A server whose socket lives in `dir` (started by the first window). */
  constructor(dir: string) {
    this.socket = path.join(dir, 'tmux.sock');
  }

  private async tmux(args: readonly string[]): Promise<string> {
    const { stdout } = await run('tmux', ['-S', this.socket, '-f', '/dev/null', ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    return stdout;
  }

  /**
   * Opens window `name` (a session of its own) running `window.command`. With `copyTo`, what
   * tmux reads from the program goes to that file too, from its first byte on (pipe-pane):
   * tmux writes the copy in the same step as it parses those bytes, so what is in the file is
   * on the screen.
   */
  async open(name: string, window: TmuxWindow, copyTo?: string): Promise<void> {
    const env = Object.entries(window.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    const command = window.command.map(shellQuote).join(' ');
    // One command list: the pane stays after its program exits (what it left is still there to
    // read), and the copy starts before tmux reads anything from the new program.
    const copy = copyTo === undefined ? [] : [';', 'pipe-pane', '-t', name, `cat >> ${shellQuote(copyTo)}`];
    await this.tmux(['new-session', '-d', '-s', name, '-x', String(window.cols), '-y', String(window.rows), '-c', window.cwd, ...env, command, ';', 'set-option', '-t', name, 'remain-on-exit', 'on', ...copy]);
  }

  /** Types `text` into window `name`, byte for byte (no key names). */
  async type(name: string, text: string): Promise<void> {
    await this.tmux(['send-keys', '-t', name, '-l', text]);
  }

  /** Rows `first` to `last` of window `name` (0-based, inclusive), trailing blanks kept, and its cursor. */
  async capture(name: string, first: number, last: number): Promise<PaneCapture> {
    // One tmux command list: the rows and the cursor of the same moment.
    const out = await this.tmux(['capture-pane', '-t', name, '-p', '-e', '-N', '-S', String(first), '-E', String(last), ';', 'display-message', '-t', name, '-p', '#{cursor_x} #{cursor_y} #{cursor_flag}']);
    const lines = out.replace(/\n$/, '').split('\n');
    const [x, y, visible] = (lines.pop() ?? '').split(' ').map(Number);
    return { rows: lines, cursor: { x: x ?? -1, y: y ?? -1, visible: visible === 1 } };
  }

  /** Whether window `name`'s program has exited. */
  async exited(name: string): Promise<boolean> {
    return (await this.tmux(['display-message', '-t', name, '-p', '#{pane_dead}'])).trim() === '1';
  }

  /** Stops the server and every program it runs. */
  async close(): Promise<void> {
    await this.tmux(['kill-server']).catch(() => undefined);
  }
}
