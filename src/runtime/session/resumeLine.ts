// The line Rewind adds on the user's terminal as it leaves, under the agent's last words:
// the command that starts the same agent session again, inside Rewind, with the user's own
// arguments. The agent's own hint (`claude --resume <id>`) runs it outside Rewind.
import { chooseAgent } from '../../agents/chooseAgent.js';
import { shellWord } from '../../shared/shellWord.js';
import type { AdapterGuard } from '../../agents/adapterGuard.js';

/** What the resume command is made of. */
export interface ResumeSource {
  /** The agent's command and the user's own arguments, as given after `rewind --`. */
  command: string;
  args: readonly string[];
  /** The folder the agent ran in, and the one Rewind was started from. */
  cwd: string;
  startedIn: string;
  agent: AdapterGuard;
  /** The agent's own session id, as its latest hook call gave it (none: nothing to resume). */
  session: string | undefined;
}

/**
 * `rewind [-C DIR] [--agent NAME] -- <command> <the user's args without their resume options> <resume args>`,
 * as words; undefined when there is no session to resume (no hook call gave one, or the agent's
 * conversation cannot be resumed).
 */
export function resumeCommand(source: ResumeSource): string[] | undefined {
  const { session, agent } = source;
  if (session === undefined || agent.adapter.conversation === undefined) return undefined;
  const args = agent.call('the command that resumes it', (adapter) => adapter.conversation?.resumeArgs(source.args, session), () => undefined);
  if (args === undefined) return undefined;
  // `--agent` only where the command alone would pick another adapter.
  const named = chooseAgent(source.command).name === agent.name ? [] : ['--agent', agent.name];
  const dir = source.cwd === source.startedIn ? [] : ['-C', source.cwd];
  return ['rewind', ...dir, ...named, '--', source.command, ...args];
}

/** The one line said under the agent's last words: how to resume its session inside Rewind. */
export function resumeLineText(words: readonly string[]): string {
  return `Resume in Rewind: ${words.map(shellWord).join(' ')}`;
}

/**
 * What puts the cursor at the start of a fresh line below everything `lastWords` drew (see
 * normalScreenText: its rows, then the cursor put back where the agent left it, `CSI n A`
 * up and `CSI n C` right from the start of its row): nothing when it is already there.
 */
export function belowLastWords(lastWords: string): string {
  if (lastWords === '') return '';
  // eslint-disable-next-line no-control-regex -- the cursor moves start with ESC
  const end = /(?:\x1b\[(\d+)A)?\r(?:\x1b\[(\d+)C)?$/.exec(lastWords);
  if (!end) return '\r\n';
  // Rows drawn below the cursor: go down to the last one, then past it.
  if (end[1] !== undefined) return `\x1b[${end[1]}B\r\n`;
  if (end[2] !== undefined) return '\r\n';
  // The cursor at the start of the last row drawn: a fresh line only when that row is empty.
  const rows = lastWords.slice(0, end.index);
  return rows === '' || rows.endsWith('\r\n') ? '' : '\r\n';
}

/** `lastWords`, then the resume line on a line of its own (none: `lastWords` as they are). */
export function withResumeLine(lastWords: string, words: readonly string[] | undefined): string {
  if (words === undefined) return lastWords;
  return `${lastWords}${belowLastWords(lastWords)}${resumeLineText(words)}\r\n`;
}
