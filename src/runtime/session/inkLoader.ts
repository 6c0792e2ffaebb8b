import { PassThrough } from 'node:stream';
import type { ViewSource } from '../../app/App.js';
import { importInk } from './importInk.js';
import type { InkFrameSink } from '../../app/screenWriter.js';

/** What the loader watches: the session's view, and whether its agent is busy. */
export interface InkHost extends ViewSource {
  readonly agentBusy: boolean;
}

const pollMs = 200;
/** Loaded by then even for an agent that never goes quiet (a spinner, a clock). */
const loadAnywayMs = 3_000;

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
 * app when an overlay or the picker first needs them, or before that, once the agent's
 * output is quiet: never in the middle of a flood of output, which would stall the agent.
 * Returns a stop function.
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
    if (host.agentBusy && Date.now() - started < loadAnywayMs) return;
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
