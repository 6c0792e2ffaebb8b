// Claude Code's command line, started again on a rebuilt conversation: the user's own
// arguments without those that pick a conversation or send a prompt, then `--resume <id>`.
// Claude's options as its --help lists them (2.1.x): which take a value decides what is
// the prompt.
import { optionsWithout } from '../optionsWithout.js';

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

/**
 * The user's `claude` arguments to start again resumed in `session` (none: a new
 * conversation): resume, continue, session-id and fork options dropped, and the prompt
 * (a word that is no option's value) too, or it would be sent again.
 */
export function claudeResumeArgs(args: readonly string[], session: string | undefined): string[] {
  const out = optionsWithout(args, { oneValue, manyValues, optionalValue }, picksConversation);
  return session === undefined ? out : [...out, '--resume', session];
}
