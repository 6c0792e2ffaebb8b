// Codex's command line, started again on a rebuilt conversation: the user's own options
// (without a prompt, or a subcommand that picks a session) then `resume <id>`. Which options
// take a value, as `codex --help` lists them (0.171).

const oneValue = new Set(['-c', '--config', '--enable', '--disable', '--remote', '--remote-auth-token-env', '--local-provider', '-m', '--model', '-p', '--profile', '-s', '--sandbox', '-C', '--cd', '--add-dir', '-a', '--ask-for-approval']);
const manyValues = new Set(['-i', '--image']);
const isOption = (arg: string) => arg.startsWith('-') && arg !== '-';

/** The user's `codex` arguments to start again resumed in `session` (none: a new conversation). */
export function codexResumeArgs(args: readonly string[], session: string | undefined): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    // A subcommand (resume, fork, exec…) or the prompt: what follows is theirs, not an option of codex's.
    if (!isOption(arg)) break;
    out.push(arg);
    const inline = arg.startsWith('--') && arg.includes('=');
    if (inline) continue;
    if (oneValue.has(arg) && i + 1 < args.length) out.push(args[++i] as string);
    else if (manyValues.has(arg)) while (i + 1 < args.length && !isOption(args[i + 1] as string)) out.push(args[++i] as string);
  }
  return session === undefined ? out : [...out, 'resume', session];
}
