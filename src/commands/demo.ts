// `rewind demo [DIR]`: a sandbox project and the app on the demo agent, to try Rewind with
// no agent account.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDemoProject } from '../demo/project.js';
import { UsageError } from '../shared/errors.js';
import { writeLine, type CommandIO } from './io.js';
import { runAgentApp } from './run.js';

const help = `Usage: rewind demo [DIR]

Makes a small sandbox project (a git repository with a tiny server and its tests, in a new
temp folder, or in DIR if you give a new or empty one) and opens Rewind on the built-in demo
agent: a pretend coding agent that edits, writes and deletes files through the same hooks as
Claude Code. Type 1, 2 or 3 at its prompt, then Esc Esc to rewind.

Examples:
  rewind demo                 # try it in a temp folder
  rewind demo ~/rewind-demo   # or in a folder you keep`;

/** Where the built demo agent is. */
function demoAgentScript(): string {
  return fileURLToPath(new URL('../demo/agent.js', import.meta.url));
}

export const demoHint = 'demo: type 1, 2 or 3 and Enter for a task · Esc Esc rewinds what it did · Ctrl+] for commands · Ctrl-C twice quits';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    writeLine(io.stdout, help);
    return 0;
  }
  if (argv.length > 1 || argv[0]?.startsWith('-')) throw new UsageError(`unexpected '${argv.find((arg) => arg.startsWith('-')) ?? argv[1]}' (see \`rewind demo --help\`)`);
  const place = createDemoProject(argv[0] === undefined ? undefined : path.resolve(io.cwd, argv[0]), io.env);
  return runAgentApp(
    { command: process.execPath, args: [demoAgentScript()], agent: 'demo', cwd: place.project, env: { ...io.env, REWIND_DEMO_CONFIG_DIR: place.agentHome }, hint: demoHint },
    io,
  );
}
