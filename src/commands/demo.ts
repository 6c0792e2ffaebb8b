// `rewind demo [DIR]`: a sandbox project and the app on the demo agent, to try Rewind with
// no agent account.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDemoProject } from '../demo/project.js';
import { UsageError } from '../shared/errors.js';
import { commandHelp } from './shared/help.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { runAgentApp } from './run.js';

/** Where the built demo agent is. */
function demoAgentScript(): string {
  return fileURLToPath(new URL('../demo/agent.js', import.meta.url));
}

// In the notice's shape (what: detail — what to do), so a narrow terminal keeps the keys.
// What to do first is the notice's what: a narrow terminal keeps it and shortens the rest.
export const demoHint = 'type 1, 2 or 3 and Enter for a demo task — Esc Esc rewinds what it did · Ctrl+] commands · Ctrl-C twice quits';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    writeLine(io.stdout, commandHelp('demo'));
    return 0;
  }
  if (argv.length > 1 || argv[0]?.startsWith('-')) throw new UsageError(`unexpected '${argv.find((arg) => arg.startsWith('-')) ?? argv[1]}' (see \`rewind demo --help\`)`);
  const place = createDemoProject(argv[0] === undefined ? undefined : path.resolve(io.cwd, argv[0]), io.env);
  return runAgentApp(
    { command: process.execPath, args: [demoAgentScript()], agent: 'demo', cwd: place.project, env: { ...io.env, REWIND_DEMO_CONFIG_DIR: place.agentHome }, hint: demoHint, resumeLine: false },
  );
}
