// vttest run twice side by side in one private tmux server: bare in a window of its size, and
// as `rewind -- …` in a window one row taller (Rewind's status line), so that Rewind's pane is
// exactly vttest's screen. Keys go to both; a step is over once each vttest has written its
// next prompt and each terminal shows it; then the two screens are compared cell by cell.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { requireBuiltCli } from '../helpers/restoreKit.js';
import type { Sandbox } from '../helpers/tempRepo.js';
import { TmuxServer, type PaneCapture } from '../helpers/tmux.js';
import { screenCells, type ScreenCell } from './tmuxScreen.js';

export const COLS = 80;
export const ROWS = 24;

/** What the run needs on the machine: each missing one fails the test with how to install it. */
export function requireTools(): void {
  for (const [tool, pkg] of [['vttest', 'vttest'], ['tmux', 'tmux'], ['script', 'bsdutils']] as const) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} is not installed: apt-get install ${pkg} (.ci/run does)`);
    }
  }
}

export type SideName = 'bare' | 'rewind';

/** One of the two terminals: its tmux window and the file that receives what vttest has written. */
interface Side {
  name: SideName;
  /** Bare: what tmux has read from the pane (pipe-pane: read means parsed). Rewind: what vttest wrote to Rewind's pty. */
  log: string;
}

/** Both screens at one moment, as cells, with their cursors. */
export interface Screens {
  bare: ScreenCell[][];
  rewind: ScreenCell[][];
  cursors: Record<SideName, PaneCapture['cursor']>;
}

export class VttestRun {
  private readonly tmux: TmuxServer;
  private readonly sides: Side[];

  private constructor(private readonly dir: string) {
    this.tmux = new TmuxServer(dir);
    this.sides = [
      { name: 'bare', log: path.join(dir, 'bare.out') },
      { name: 'rewind', log: path.join(dir, 'rewind.out') },
    ];
  }

  /** Starts both in the sandbox's project `vttest` (Rewind's store and config in the sandbox). */
  static async start(sb: Sandbox): Promise<VttestRun> {
    const cli = requireBuiltCli();
    const dir = sb.base;
    const run = new VttestRun(dir);
    const root = sb.repo('vttest');
    // vttest under script(1), which copies what it writes to a file as it goes (-f): the log
    // tells when vttest has got to its next prompt. The same on both sides.
    const vttest = (log: string) => ['script', '-q', '-f', '-O', log, '-c', `vttest ${ROWS}x${COLS}.${COLS}`];
    const env: Record<string, string> = { HOME: sb.home, REWIND_HOME: sb.store, REWIND_CONFIG_DIR: sb.configDir, SHELL: '/bin/sh', PATH: process.env.PATH ?? '/usr/bin:/bin' };
    await run.tmux.open('bare', { cols: COLS, rows: ROWS, cwd: root, env, command: vttest(path.join(dir, 'bare.script')) }, path.join(dir, 'bare.out'));
    await run.tmux.open('rewind', { cols: COLS, rows: ROWS + 1, cwd: root, env, command: [process.execPath, cli, '--', ...vttest(path.join(dir, 'rewind.out'))] });
    return run;
  }

  /** How many times any of `texts` is in what `side`'s vttest has written so far. */
  private count(side: Side, texts: readonly string[]): number {
    const log = fs.existsSync(side.log) ? fs.readFileSync(side.log, 'latin1') : '';
    return texts.reduce((sum, text) => sum + log.split(text).length - 1, 0);
  }

  /**
   * Types `keys` into both, then waits until both vttests have written one of `prompts` once
   * more and the bare terminal shows it; returns the one the bare vttest wrote last. Rejects
   * after `timeoutMs` saying where each side got to.
   */
  async step(keys: string, prompts: readonly string[], timeoutMs = 15_000): Promise<string> {
    const before = this.sides.map((side) => this.count(side, prompts));
    for (const side of this.sides) await this.tmux.type(side.name, keys);
    await this.waitForPrompt(prompts, before, timeoutMs);
    const log = fs.readFileSync(this.sides[0]?.log ?? '', 'latin1');
    return prompts.reduce((last, prompt) => (log.lastIndexOf(prompt) > log.lastIndexOf(last) ? prompt : last));
  }

  /** Leaves vttest from its main menu (0): resolves once both programs have ended (Rewind with vttest). */
  async quit(timeoutMs = 15_000): Promise<void> {
    for (const side of this.sides) await this.tmux.type(side.name, '0\r');
    const deadline = Date.now() + timeoutMs;
    for (const side of this.sides) {
      while (!(await this.tmux.exited(side.name))) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${side.name} to end after vttest's Exit\n${await this.texts()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  /** Waits for vttest's first prompt on both (its menu). */
  async started(prompt: readonly string[], timeoutMs = 30_000): Promise<void> {
    await this.waitForPrompt(prompt, [0, 0], timeoutMs);
  }

  private async waitForPrompt(prompt: readonly string[], before: readonly number[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const done = () => this.sides.every((side, i) => this.count(side, prompt) > (before[i] ?? 0));
    // Bare: what tmux has read and parsed; Rewind: what vttest wrote, drawn at Rewind's pace (compared until it is).
    const shown = async () => (await this.tmux.capture('bare', 0, ROWS - 1)).rows.some((row) => prompt.some((text) => row.includes(text)));
    while (!(done() && (await shown()))) {
      if (Date.now() > deadline) {
        const got = this.sides.map((side, i) => `${side.name}: ${this.count(side, prompt) - (before[i] ?? 0)} new`).join(', ');
        throw new Error(`timed out after ${timeoutMs} ms waiting for vttest's "${prompt.join('" or "')}" (${got})\n${await this.texts()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Both screens now: the bare window whole, Rewind's pane (its window less the status line). */
  async screens(): Promise<Screens> {
    const [bare, rewind] = await Promise.all([this.tmux.capture('bare', 0, ROWS - 1), this.tmux.capture('rewind', 0, ROWS - 1)]);
    return { bare: screenCells(bare.rows, COLS), rewind: screenCells(rewind.rows, COLS), cursors: { bare: bare.cursor, rewind: rewind.cursor } };
  }

  /** Both screens as text, for a failure's message. */
  async texts(): Promise<string> {
    const { bare, rewind } = await this.screens();
    const text = (rows: ScreenCell[][]) => rows.map((row) => row.map((cell) => cell.chars).join('').trimEnd()).join('\n');
    return `--- bare:\n${text(bare)}\n--- rewind:\n${text(rewind)}`;
  }

  async close(): Promise<void> {
    await this.tmux.close();
  }
}
