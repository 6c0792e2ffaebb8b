// `/bisect <test command>` in the app: `rewind bisect` in the background, its progress in the
// status line, then an offer to open the picker at the first bad checkpoint (the next Esc Esc,
// or `/bisect` again).
import type { BisectEvent, BisectResult } from '../../checkpoints/index.js';
import { messageOf } from '../../shared/errors.js';
import { offerPickerAt, openPicker } from './pickerFlow.js';
import type { SessionPort } from '../session/sessionPort.js';

interface BisectState {
  running?: { controller: AbortController; line: string; timer: NodeJS.Timeout };
  /** The first bad checkpoint the last bisect found. */
  found?: number;
}

/** Notices fade after a few seconds: the progress is said again this often while a test runs. */
const repeatMs = 4_000;

const states = new WeakMap<SessionPort, BisectState>();

function stateOf(session: SessionPort): BisectState {
  let state = states.get(session);
  if (!state) states.set(session, (state = {}));
  return state;
}

function progressLine(event: BisectEvent): string {
  if (event.kind === 'changed') return `bisect: your project changed during the test of #${event.change.id}: ${event.change.summary}`;
  if (event.kind === 'testing') return `bisect: testing #${event.id} (run ${event.run}${event.left > 0 ? `, about ${event.left} more` : ''}) · /bisect stop`;
  return `bisect: #${event.step.id} ${event.step.verdict}${event.step.note ? ` (${event.step.note})` : ''}`;
}

function foundLine(result: BisectResult): string {
  const { firstBad, before } = result;
  const maybe = result.maybe.length > 0 ? ` (or one of ${result.maybe.map((record) => `#${record.id}`).join(', ')}, untested)` : '';
  return `bisect: #${firstBad.id} is the first bad checkpoint${maybe}, after the step of #${before.id} ${before.label || before.trigger} (${result.runs} runs) — Esc Esc opens the picker there`;
}

/** What the tests changed in the project, said with the outcome (the progress notices fade). */
function changedLine(changes: readonly { id: number; summary: string }[]): string {
  if (changes.length === 0) return '';
  const named = changes.slice(0, 2).map((change) => `#${change.id}: ${change.summary}`);
  const more = changes.length > 2 ? ` and during ${changes.length - 2} more tests` : '';
  return ` · your project changed while the tests ran (${named.join('; ')}${more})`;
}

async function run(session: SessionPort, command: string, state: BisectState): Promise<void> {
  const checkpointer = session.checkpoints;
  if (!checkpointer) return;
  const controller = new AbortController();
  const changes: { id: number; summary: string }[] = [];
  const say = (line: string, tone?: 'warning') => {
    if (state.running) state.running.line = line;
    session.say(line, tone);
  };
  const onStep = (event: BisectEvent) => {
    if (event.kind === 'changed') changes.push(event.change);
    say(progressLine(event), event.kind === 'changed' ? 'warning' : undefined);
  };
  const timer = setInterval(() => state.running && session.say(state.running.line), repeatMs);
  // Never what keeps the app running.
  timer.unref();
  state.running = { controller, line: `bisect: starting · ${command}`, timer };
  state.found = undefined;
  session.say(state.running.line);
  try {
    // The test runs with the environment rewind was started with (the user's), in a scratch folder.
    const result = await checkpointer.engine.bisect({ command: [command], env: process.env, signal: controller.signal, onStep });
    state.found = result.firstBad.id;
    offerPickerAt(session, result.firstBad.id);
    clearInterval(state.running.timer);
    state.running = undefined;
    session.say(`${foundLine(result)}${changedLine(changes)}`, 'warning');
  } catch (error) {
    const line = controller.signal.aborted ? 'bisect stopped; its scratch folder was removed' : `bisect: ${messageOf(error)}`;
    const tone = controller.signal.aborted ? (changes.length > 0 ? 'warning' : 'info') : 'error';
    session.say(`${line}${changedLine(changes)}`, tone);
  } finally {
    if (state.running) clearInterval(state.running.timer);
    state.running = undefined;
  }
}

/**
 * `/bisect <command>` starts a bisect in the background; `/bisect` alone opens the picker at
 * the first bad checkpoint it found; `/bisect stop` stops the one running. Returns an error
 * for the command bar, or undefined.
 */
export async function bisectCommand(session: SessionPort, argument: string): Promise<string | undefined> {
  const state = stateOf(session);
  if (argument === 'stop') {
    if (!state.running) return 'no bisect is running';
    state.running.controller.abort();
    return undefined;
  }
  if (argument === '' || argument === 'open') {
    if (state.found !== undefined) {
      await openPicker(session, state.found);
      return undefined;
    }
    return state.running ? 'the bisect is still running (/bisect stop stops it)' : 'name the test command: /bisect npm test (run on each checkpoint in a scratch folder; what a test changes in your project is named)';
  }
  if (state.running) return 'a bisect is already running: /bisect stop stops it';
  await session.checkpointsOpened();
  if (!session.checkpoints) return `checkpoints are off: ${session.checkpointsOffReason ?? ''}`;
  void run(session, argument, state);
  return undefined;
}
