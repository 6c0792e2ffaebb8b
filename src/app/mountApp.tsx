import React from 'react';
import { render, type Instance } from 'ink';
import { App, type ViewSource } from './App.js';

/** Draws the app with Ink: never Ink's own stdin (rewind reads the keys), never its Ctrl+C exit. */
export function mountApp(source: ViewSource, stdout: NodeJS.WriteStream, stdin: NodeJS.ReadStream): Instance {
  return render(<App source={source} />, { stdout, stdin, exitOnCtrlC: false, patchConsole: false });
}
