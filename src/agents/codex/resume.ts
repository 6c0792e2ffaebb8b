// Codex's command line, started again on a rebuilt conversation: the user's own options
// (without a prompt, or a subcommand that picks a session) then `resume <id>`. Which options
// take a value, as `codex --help` lists them (0.171).
import { optionsWithout } from '../optionsWithout.js';

const oneValue = new Set(['-c', '--config', '--enable', '--disable', '--remote', '--remote-auth-token-env', '--local-provider', '-m', '--model', '-p', '--profile', '-s', '--sandbox', '-C', '--cd', '--add-dir', '-a', '--ask-for-approval']);
const manyValues = new Set(['-i', '--image']);

/** The user's `codex` arguments to start again resumed in `session` (none: a new conversation). */
export function codexResumeArgs(args: readonly string[], session: string | undefined): string[] {
  const out = optionsWithout(args, { oneValue, manyValues, optionalValue: new Set() }, new Set(), true);
  return session === undefined ? out : [...out, 'resume', session];
}
