import { SessionController } from './controller.js';
import { openForApp } from '../checkpointing/checkpointer.js';
import { progressNotices } from './progressNotice.js';
import { decset, restoreTerminalSequence, SAVE_TITLE } from '../../pty/terminalModes.js';
import { loadConfigLenient } from '../../config/lenient.js';
import { InkFrameSink, layoutOf, ScreenWriter } from '../../app/screenWriter.js';
import { loadInkWhenNeeded } from './inkLoader.js';
import { resumeCommand, withResumeLine } from './resumeLine.js';

import type { RunSessionOptions } from './appOptions.js';
import { OuterColours } from './outerColours.js';
import { waitMs } from '../../shared/seams.js';

/** How long the outer terminal has to tell its colours (a terminal answers in a few ms; one that answers nothing delays only an agent that asks). */
const coloursDeadlineMs = 300;

const signalNumbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * The app around a started agent, until it exits; returns its exit code. The terminal is
 * put back (raw mode off, cursor shown, alternate screen left, modes reset) on every way
 * out: the agent exits, /quit, SIGTERM or SIGHUP, an error. SIGTERM and SIGINT let the agent
 * leave its own way first (its quit key, as /quit does); SIGHUP (the terminal gone) does not.
 */
export async function runSession(options: RunSessionOptions): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  // A typo in config.json never keeps the agent from starting: its default stands in, and the status line says so.
  const { config, problems: configProblems } = await loadConfigLenient(options.env);
  // The outer terminal's colours, asked on the app's input as soon as it reads it (below).
  const outer = new OuterColours();
  const session = new SessionController({
    ...options,
    colours: outer.colours,
    keyboard: outer.keyboard,
    config,
    configProblems,
    columns: stdout.columns || 80,
    rows: stdout.rows || 24,
    writeOuter: (data) => stdout.write(data),
  });
  session.start();
  // The agent starts first; checkpoints are opened while it does.
  void openForApp(options.cwd, config, options.env, progressNotices((text) => session.say(text))).then((checkpoints) => session.attachCheckpoints(checkpoints));

  stdout.write(`${SAVE_TITLE}${decset(1049, true)}\x1b[2J\x1b[H`);
  // What one frame draws (the status row for its view, then the pane's rows) goes out in one
  // write: a terminal that reads the two apart would show a pane a frame behind its status row.
  let frameOut = '';
  const writeFrame = (data: string) => {
    if (frameOut === '')
      queueMicrotask(() => {
        const out = frameOut;
        frameOut = '';
        if (!restored) stdout.write(out);
      });
    frameOut += data;
  };
  const writer = new ScreenWriter(writeFrame, layoutOf(session.view()));
  // Layout first: the writer must know who draws the pane before Ink's frame for a view arrives.
  session.subscribe(() => writer.setLayout(layoutOf(session.view())));
  session.onPaneFrame((frame) => writer.paneFrame(frame));
  const inkFrames = new InkFrameSink(writer, stdout.columns || 80, stdout.rows || 24);
  const stopInk = loadInkWhenNeeded(session, inkFrames);
  // Bytes, not text: keys reach the agent exactly as typed, UTF-8 or not (see KeyReader).
  // The terminal's answers to the colour query (however late) are no keys.
  const onInput = (chunk: Buffer) => {
    const keys = outer.take(chunk);
    if (keys.length > 0) session.input(keys);
  };
  stdin.setRawMode(true);
  stdin.on('data', onInput);
  stdin.resume();
  outer.ask((data) => stdout.write(data), waitMs('colour-query', coloursDeadlineMs));
  const onResize = () => {
    session.resize(stdout.columns, stdout.rows);
    inkFrames.resize(stdout.columns, stdout.rows);
  };
  stdout.on('resize', onResize);

  let restored = false;
  // Once the terminal is gone (SIGHUP, the window closed), writing to it fails with EIO:
  // nothing more is written, and those errors are not errors of ours.
  let terminalGone = false;
  const ignoreWriteErrors = () => undefined;
  stdout.on('error', ignoreWriteErrors);
  process.stderr.on('error', ignoreWriteErrors);
  /** Puts the terminal back, then writes `lastWords` on the user's own screen (see SessionController.lastWords). */
  const restoreTerminal = (lastWords = '') => {
    if (restored) return;
    restored = true;
    stdout.off('resize', onResize);
    stdin.off('data', onInput);
    // Ink is not unmounted: that renders one more frame (~80 ms) nobody sees; rewind exits next.
    stopInk();
    writer.stop();
    if (terminalGone) return;
    try {
      stdin.setRawMode(false);
    } catch {
      // The terminal went away meanwhile.
    }
    // What the agent left on its normal screen lands where a bare run would have left it:
    // under the command that started Rewind, where leaving the alternate screen puts the cursor.
    // The keyboard modes first: a terminal keeps them per screen, and they were set on the alternate one.
    stdout.write(session.releaseOuterKeyboard() + restoreTerminalSequence() + lastWords);
    stdin.pause();
  };
  /** How to resume the agent's session inside Rewind, if there is one to resume. */
  const resume = () =>
    options.resumeLine === false ? undefined : resumeCommand({ command: options.command, args: options.args, cwd: options.cwd, startedIn: process.cwd(), agent: session.agent, session: session.agentSession() });
  /**
   * The agent's last words, or none if they cannot be had (bounded: the app is on its way
   * out), then the line that resumes its session inside Rewind.
   */
  const lastWords = (): Promise<string> =>
    new Promise<string>((resolve) => {
      if (terminalGone) return resolve('');
      const timer = setTimeout(() => resolve(''), 2_000).unref();
      session.lastWords().then(resolve, () => resolve('')).finally(() => clearTimeout(timer));
    }).then((words) => (terminalGone ? words : withResumeLine(words, resume())));
  let leaving = false;
  /**
   * Stops the agent (bounded: a stuck one is killed), puts the terminal back, exits. `ownWay`:
   * the agent is first asked to leave as its user would (its quit key), so its goodbye stays.
   */
  const leave = (code: number, message?: string, ownWay = false) => {
    if (leaving) return;
    leaving = true;
    const asked = ownWay ? session.askAgentToLeave() : Promise.resolve();
    const stopped = Promise.race([asked.then(() => session.stop()), new Promise((resolve) => setTimeout(resolve, ownWay ? 6_000 : 3_000))]);
    void stopped.then(lastWords, lastWords).then((words) => {
      restoreTerminal(words);
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
    // SIGTERM or SIGINT with the terminal still there: the agent leaves its own way, as with /quit.
    leave(128 + (signalNumbers[signal] ?? 1), undefined, !terminalGone);
  };
  const onFatal = (error: unknown) => {
    leave(70, `rewind: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  };
  const onTerminalClosed = () => {
    terminalGone = true;
    leave(129);
  };
  // Every listener takes what its event passes (a signal name, an error), or nothing.
  const exits = [
    [stdin, 'end', onTerminalClosed],
    [stdin, 'error', onTerminalClosed],
    [process, 'SIGTERM', onSignal],
    [process, 'SIGINT', onSignal],
    [process, 'SIGHUP', onSignal],
    [process, 'uncaughtException', onFatal],
    [process, 'unhandledRejection', onFatal],
  ] as [NodeJS.EventEmitter, string, (...args: unknown[]) => void][];
  for (const [emitter, event, listener] of exits) emitter.on(event, listener);
  try {
    const exit = await session.exited;
    // A signal or error is already taking rewind down, with its own exit code.
    if (leaving) await new Promise<never>(() => undefined);
    // Leaving on purpose (/quit) is a success, whatever the agent's end (SIGHUP: 129).
    if (session.quitRequested) return 0;
    return exit.signal ? 128 + exit.signal : exit.exitCode;
  } finally {
    await session.stop();
    restoreTerminal(await lastWords());
    for (const [emitter, event, listener] of exits) emitter.off(event, listener);
  }
}
