// Gemini CLI's command line, started again on a rebuilt conversation: the user's own
// arguments without those that pick a session or send a prompt, then `--resume <id>`.
// Its options as `gemini --help` of the pinned release (0.61) lists them (yargs: an array
// option takes every value up to the next option): which take a value decides what is the
// prompt (its positional `query..`).
import { optionsWithout } from '../optionsWithout.js';

/** Options that take one value. */
const oneValue = new Set([
  '-m', '--model', '-p', '--prompt', '-i', '--prompt-interactive', '--approval-mode', '-r', '--resume', '--session-file', '--session-id',
  '--delete-session', '-o', '--output-format',
]);
/** Options that take every value up to the next option. */
const manyValues = new Set(['--policy', '--admin-policy', '--allowed-mcp-server-names', '--allowed-tools', '-e', '--extensions', '--include-directories']);
/** Options whose value is optional (taken when the next argument is not an option). */
const optionalValue = new Set(['-w', '--worktree']);
/**
 * What picks the session or sends a prompt: dropped, the rebuilt session is resumed instead
 * (and a prompt would be sent again; `-p` would also make the agent exit after it).
 */
const dropped = new Set(['-r', '--resume', '--session-file', '--session-id', '-p', '--prompt', '-i', '--prompt-interactive', '--list-sessions', '--delete-session']);

/**
 * The user's `gemini` arguments to start again resumed in `session` (none: a new
 * conversation): the resume, session and prompt options dropped, and the prompt words too.
 */
export function geminiResumeArgs(args: readonly string[], session: string | undefined): string[] {
  const out = optionsWithout(args, { oneValue, manyValues, optionalValue }, dropped);
  return session === undefined ? out : [...out, '--resume', session];
}
