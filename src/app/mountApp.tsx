import React from 'react';
import { render, type Instance } from 'ink';
import { App, type ViewSource } from './App.js';
import type { InkFrameSink } from './screenWriter.js';

/**
 * Draws the app with Ink into the screen writer: debug mode hands over each whole frame
 * (no log-update erasing lines of the real terminal). Never Ink's own stdin (rewind reads
 * the keys), never its Ctrl+C exit.
 */
export function mountApp(source: ViewSource, frames: InkFrameSink, stdin: NodeJS.ReadStream): Instance {
  // Ink writes to and listens on its stdout; the sink has exactly what it uses.
  const stdout = frames as unknown as NodeJS.WriteStream;
  return render(<App source={source} />, { stdout, stdin, debug: true, exitOnCtrlC: false, patchConsole: false });
}
