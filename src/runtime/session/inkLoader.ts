import { PassThrough } from 'node:stream';
import type { ViewSource } from '../../app/App.js';
import { importInk } from './importInk.js';
import type { InkFrameSink } from '../../app/screenWriter.js';

/** What the loader watches: the session's view, and whether its agent is busy or still starting. */
export interface InkHost extends ViewSource {
  readonly agentBusy: boolean;
  /** How long the agent's output has been quiet (undefined: it has written nothing yet). */
  agentQuietFor(): number | undefined;
}

const pollMs = 200;
/** How long the agent's start screen must have been quiet before Ink is loaded behind it. */
const settledMs = 500;
/** Loaded by then even for an agent that never goes quiet (a spinner, a clock). */
const loadAnywayMs = 3_000;

/**
 * Whether to load Ink now, with no view asking for it: once the agent has drawn its start
 * screen and gone quiet. Not before its first output: an agent asks the terminal its colours
 * and keyboard as it starts, and waits for the answers only so long (Codex ~0.2 s, then it
 * draws without its theme); Ink's load blocks the event loop that reads those questions and
 * answers them for ~0.2 s of one core, more on a busy machine.
 */
export function inkLoadDue(agent: { busy: boolean; quietFor: number | undefined }, sinceStart: number): boolean {
  if (sinceStart >= loadAnywayMs) return true;
  return !agent.busy && agent.quietFor !== undefined && agent.quietFor >= settledMs;
}

/** A stdin for Ink that is never read: rewind reads the real one itself (docs/agents.md, "Ink and the terminal"). */
function inertStdin(): NodeJS.ReadStream {
  const stream = new PassThrough() as unknown as NodeJS.ReadStream & { isTTY: boolean };
  stream.isTTY = true;
  stream.setRawMode = () => stream;
  stream.ref = () => stream;
  stream.unref = () => stream;
  return stream;
}

/**
 * Loads Ink and React (~0.2 s of one core, the event loop blocked meanwhile) and mounts the
 * app when an overlay or the picker first needs them, or before that, once the agent has
 * started and its output is quiet (inkLoadDue): never in the middle of a flood of output,
 * which would stall the agent, nor while it asks the terminal how to draw. Returns a stop function.
 */
export function loadInkWhenNeeded(host: InkHost, frames: InkFrameSink): () => void {
  let stopped = false;
  let loading: Promise<void> | undefined;
  const load = () => {
    loading ??= importInk().then(({ mountApp }) => {
      if (!stopped) mountApp(host, frames, inertStdin());
    });
  };
  const unsubscribe = host.subscribe(() => {
    const view = host.view();
    if (view.overlay || view.picker) load();
  });
  const started = Date.now();
  const timer = setInterval(() => {
    if (!inkLoadDue({ busy: host.agentBusy, quietFor: host.agentQuietFor() }, Date.now() - started)) return;
    clearInterval(timer);
    load();
  }, pollMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
  };
}
