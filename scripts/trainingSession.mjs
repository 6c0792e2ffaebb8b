// The build's training session (scripts/postbuild.mjs runs it last): the built app started
// once in a pty, so that it writes its bundle's V8 code cache (dist/bundle/app.cjs.cache)
// holding the functions a session runs, not only the top level.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Colourful full-screen redraws, then plain scrolling lines: what an agent's pane sees. */
const trainingOutput = `
const frame = [];
for (let y = 0; y < 20; y++) {
  let line = '\\x1b[' + (y + 1) + ';1H';
  for (let x = 0; x < 8; x++) line += '\\x1b[1;38;5;' + ((x * 31 + y * 7) % 256) + 'm\\x1b[48;2;' + x + ';' + y + ';9m cell ' + x + '\\x1b[0m';
  frame.push(line);
}
let out = '';
for (let i = 0; i < 400; i++) out += '\\x1b[H' + frame.join('');
out += '\\x1b[2J\\x1b[H';
for (let i = 0; i < 20000; i++) out += i + ' \\u00e9\\u4e2d\\x1b[32mok\\x1b[m\\r\\n';
process.stdout.write(out);
`;

/**
 * Runs the built app (`cli`, dist/cli.js) once in a pty (a session in a scratch project, the
 * agent printing for a moment), told so by scripts/trainCodeCache.mjs (preloaded): the app
 * writes app.cjs.cache as it exits. A failure is said; the app then compiles at start.
 */
export async function trainCodeCache(cli) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'rewind-train-'));
  try {
    // A project of its own under HOME: the session takes checkpoints, as a user's does.
    const project = path.join(scratch, 'project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'agent.js'), trainingOutput);
    const { spawn } = (await import('@lydell/node-pty')).default;
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, TERM: 'xterm-256color', REWIND_HOME: path.join(scratch, 'store'), REWIND_CONFIG_DIR: path.join(scratch, 'config'), NODE_OPTIONS: `--import="${new URL('./trainCodeCache.mjs', import.meta.url).pathname}"` };
    // As users start it: V8 rejects a cache made under other flags.
    const child = spawn(cli, ['--', process.execPath, 'agent.js'], { cols: 120, rows: 30, cwd: project, env, name: 'xterm-256color' });
    child.onData(() => undefined);
    const exitCode = await new Promise((resolve) => {
      const deadline = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('timed out');
      }, 20_000);
      child.onExit((event) => {
        clearTimeout(deadline);
        resolve(event.exitCode);
      });
    });
    if (exitCode !== 0) process.stderr.write(`postbuild: training the app's code cache failed (${exitCode}); the app compiles at start instead\n`);
  } catch (error) {
    process.stderr.write(`postbuild: training the app's code cache failed (${error instanceof Error ? error.message : String(error)}); the app compiles at start instead\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
