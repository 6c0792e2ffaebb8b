// `rewind hook <agent> <event>`: what an agent's hook runs when the app is not there to
// answer it (hooks/rewind-hook.sh hands calls to the app when it is). Always exits 0.
import { commandHelp } from './shared/help.js';
import { readHookStdin } from './hook/hookStdin.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { standaloneHook } from '../hooks/standaloneHook.js';
import { hookStdinBudgetMs } from '../shared/hookPayload.js';

export async function main(argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    writeLine(io.stdout, commandHelp('hook'));
    return 0;
  }
  const [agent = 'generic', event = ''] = argv;
  const warn = (line: string) => writeLine(io.stderr, `rewind: ${line}`);
  try {
    const budgetMs = hookStdinBudgetMs();
    const { bytes, cut, late } = await readHookStdin(io, budgetMs);
    if (late) warn(`the payload on the hook's stdin did not end within ${Math.ceil(budgetMs / 1000)} s: read what came`);
    await standaloneHook({ agent, event, payload: bytes, cut, env: io.env, cwd: io.cwd, warn });
  } catch (error) {
    // Never a failed step for the agent: even our own bug is a line on stderr here.
    warn(`internal error in the hook (please report it): ${error instanceof Error ? error.message : String(error)}`);
  }
  return 0;
}
