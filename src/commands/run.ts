import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { appBundle } from '../shared/bundles.js';
import { runApp, type RunAppOptions, type SessionLoader } from '../runtime/session/runApp.js';
import { agentFacts } from '../services/helpFacts.js';
import { commandHelp } from './shared/help.js';
import { commandTable } from './shared/table.js';
import { writeLine, type CommandIO } from './shared/io.js';
import { UsageError } from '../shared/errors.js';

type RunOption = keyof typeof commandTable.run.options;

/** The app's options as typed (`--agent`), from the command table: what its help lists. */
const runOptions = new Map(Object.keys(commandTable.run.options).map((name) => [`--${name}`, name as RunOption]));

/** Splits `[options] -- command args…`. */
export function parseRunArgs(argv: readonly string[]): { agent?: string; dir?: string; log?: string; command: string; args: string[] } {
  const values: Partial<Record<RunOption, string>> = {};
  let dir: string | undefined;
  let i = 0;
  for (; i < argv.length && argv[i] !== '--'; i++) {
    const arg = argv[i] ?? '';
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const option = runOptions.get(equals < 0 ? arg : arg.slice(0, equals));
    if (option !== undefined && equals >= 0) {
      values[option] = arg.slice(equals + 1);
    } else if (option !== undefined || arg === '-C') {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value (see \`rewind run --help\`)`);
      if (option !== undefined) values[option] = value;
      else dir = value;
    } else {
      throw new UsageError(`unexpected '${arg}': put the agent's command after --, as in \`rewind -- claude\` (see \`rewind run --help\`)`);
    }
  }
  const [command, ...args] = argv.slice(i + 1);
  if (!command) throw new UsageError('no agent command: put it after --, as in `rewind -- claude` (see `rewind run --help`)');
  return { agent: values.agent, dir, log: values.log, command, args };
}

/**
 * The rest of the app, loaded before the agent starts: from the bundle the build makes
 * (shared/bundles.ts: one CommonJS file, one read and compile instead of ~60 modules), else
 * from its modules.
 */
function sessionLoader(): SessionLoader {
  const bundle = appBundle();
  if (!existsSync(bundle)) return () => import('../runtime/session/runSession.js');
  return () => Promise.resolve(createRequire(import.meta.url)(bundle) as SessionModule);
}

type SessionModule = Awaited<ReturnType<SessionLoader>>;


export async function main(argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    writeLine(io.stdout, commandHelp('run', agentFacts()));
    return 0;
  }
  const { agent, dir, log, command, args } = parseRunArgs(argv);
  // The agent's hooks inherit it: a hook with no app to answer it logs to the same file.
  const env = log === undefined ? io.env : { ...io.env, REWIND_LOG: path.resolve(io.cwd, log) };
  return runAgentApp({ command, args, agent, cwd: path.resolve(io.cwd, dir ?? '.'), env });
}

/** Runs the app on an agent until it exits, then leaves with its exit code. */
export async function runAgentApp(options: RunAppOptions): Promise<number> {
  // React's development build is several times slower per frame; the app is never a dev build.
  process.env.NODE_ENV ??= 'production';
  const code = await runApp(options, sessionLoader());
  // The agent is gone and the terminal restored: nothing in flight is worth waiting for (a
  // module still loading, a usage walk), so leave now with the agent's code.
  process.exit(code);
}
