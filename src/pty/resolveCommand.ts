import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../shared/errors.js';

/** The search path execvp(3) uses when PATH is not set at all. */
const DEFAULT_SEARCH_PATH = '/usr/bin:/bin';

/**
 * The command to run in the pane does not exist or cannot be executed. node-pty would not
 * throw for it: the child prints `execvp(3) failed` and exits 1, which looks like the agent
 * crashing. We check first and say what to do instead.
 */
export class CommandNotFoundError extends UserError {
  readonly command: string;

  constructor(command: string, message: string) {
    super(message, { exitCode: 127 });
    this.name = 'CommandNotFoundError';
    this.command = command;
  }
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the file `command` names, the way execvp(3) would for a child with environment
 * `env` started in `cwd`: a name containing `/` is a path (relative to `cwd`), anything else
 * is looked up in `env.PATH` (an empty PATH entry means `cwd`). Returns the absolute path.
 *
 * @throws CommandNotFoundError when there is no such executable file.
 */
export async function resolveCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  if (command === '') throw new CommandNotFoundError(command, 'No command to run: give the agent command after `--`, e.g. `rewind -- claude`.');
  if (command.includes('/')) {
    const file = path.resolve(cwd, command);
    if (await isExecutableFile(file)) return file;
    const exists = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    throw new CommandNotFoundError(
      command,
      exists
        ? `Cannot run ${command}: the file is not executable. Make it executable (chmod +x ${command}) or run it through its interpreter.`
        : `Cannot run ${command}: no such file. Check the path.`,
    );
  }
  const searchPath = env['PATH'] ?? DEFAULT_SEARCH_PATH;
  for (const dir of searchPath.split(path.delimiter)) {
    const file = path.resolve(cwd, dir === '' ? '.' : dir, command);
    if (await isExecutableFile(file)) return file;
  }
  throw new CommandNotFoundError(
    command,
    `Command not found: ${command} is not on PATH. Install it, or give its full path (e.g. \`rewind -- /path/to/${command}\`).`,
  );
}
