// Claude Code's command line, started again on a rebuilt conversation: the user's own
// arguments without those that pick a conversation or send a prompt, then `--resume <id>`.
// Claude's options as its --help lists them (2.1.x): which take a value decides what is
// the prompt.

/** Options that take one value. */
const oneValue = new Set([
  '--agent', '--agents', '--append-system-prompt', '--debug-file', '--effort', '--fallback-model', '--input-format', '--json-schema',
  '--max-budget-usd', '--model', '-n', '--name', '--output-format', '--permission-mode', '--plugin-dir', '--plugin-url',
  '--remote-control-session-name-prefix', '--session-id', '--setting-sources', '--settings', '--system-prompt', '--system-prompt-file',
  '--append-system-prompt-file', '--permission-prompt-tool', '--max-turns',
]);
/** Options that take every value up to the next option. */
const manyValues = new Set(['--add-dir', '--allowedTools', '--allowed-tools', '--betas', '--disallowedTools', '--disallowed-tools', '--file', '--mcp-config', '--tools']);
/** Options whose value is optional (taken when the next argument is not an option). */
const optionalValue = new Set(['-d', '--debug', '--from-pr', '--prompt-suggestions', '--remote-control', '-r', '--resume', '-w', '--worktree']);
/** What picks the conversation: dropped, the rebuilt one is resumed instead. */
const picksConversation = new Set(['-r', '--resume', '-c', '--continue', '--session-id', '--fork-session', '--from-pr']);

const isOption = (arg: string) => arg.startsWith('-') && arg !== '-';

/**
 * The user's `claude` arguments to start again resumed in `session` (none: a new
 * conversation): resume, continue, session-id and fork options dropped, and the prompt
 * (a word that is no option's value) too, or it would be sent again.
 */
export function claudeResumeArgs(args: readonly string[], session: string | undefined): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    if (!isOption(arg)) continue;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), true] : [arg, false];
    const values: string[] = [];
    if (!inline) {
      if (oneValue.has(name) && i + 1 < args.length) values.push(args[++i] as string);
      else if (manyValues.has(name)) while (i + 1 < args.length && !isOption(args[i + 1] as string) && args[i + 1] !== '--') values.push(args[++i] as string);
      else if (optionalValue.has(name) && i + 1 < args.length && !isOption(args[i + 1] as string)) values.push(args[++i] as string);
    }
    if (picksConversation.has(name)) continue;
    out.push(arg, ...values);
  }
  return session === undefined ? out : [...out, '--resume', session];
}
