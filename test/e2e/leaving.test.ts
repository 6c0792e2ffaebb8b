// Leaving keeps the way back (issue 24, item 5): on every way out (the agent's own quit,
// Rewind's /quit, Ctrl-C, the agent crashing, Rewind killed) the agent's last words stay on
// the terminal, then one line that resumes its session inside Rewind with the user's own
// arguments. The demo agent (Claude's hooks and resume) started as a user would start any
// agent: `rewind --agent demo -- node <agent.js> <their flags>`.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRewind, terminalSandbox, type TermSession } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';

const terminals = terminalSandbox('rewind-leaving-');
const agentScript = path.resolve(import.meta.dirname, '../../dist/demo/agent.js');
/** The user's own flag, kept in the resume line (the demo agent ignores it). */
const userFlags = ['--permission-mode', 'acceptEdits'];
const id = '[0-9a-f]{8}-[0-9a-f-]{27}';

/** Rewind around the demo agent at its prompt, with `args` after its script. */
async function started(args: readonly string[] = userFlags, cwd = terminals.sb.repo(`p${terminals.started}`)): Promise<TermSession> {
  const sb = terminals.sb;
  const env = { ...sb.env, REWIND_DEMO_CONFIG_DIR: path.join(sb.base, 'demo-home'), REWIND_DEMO_STEP_MS: '0' };
  const session = terminals.track(startRewind(['--agent', 'demo', '--', process.execPath, agentScript, ...args], { cwd, env, cols: 220, rows: 20 }));
  await session.waitFor(/^>$/m, 15_000, 'the demo prompt');
  // Its session id comes with its first hook call (SessionStart), made before its prompt.
  return session;
}

/** The outer screen once Rewind has exited and its own screen is gone (the resume line, or `last`, is the end). */
async function leftOnScreen(session: TermSession, last = /Resume in Rewind: .*\n*$/): Promise<{ code: number; text: string }> {
  const exit = await session.exited;
  await waitFor(() => last.test(session.text()) && !session.text().includes('◈ rewind'), 5_000, 'the screen after exit').catch((error: unknown) => {
    throw new Error(`${String(error)}; screen:\n${session.text()}`, { cause: error });
  });
  return { code: exit.exitCode, text: session.text() };
}

/** The resume line expected for session `session`: the user's command with `--resume <session>`. */
function resumeLine(session: string): string {
  return `Resume in Rewind: rewind --agent demo -- ${process.execPath} ${agentScript} ${userFlags.join(' ')} --resume ${session}`;
}

/** The demo agent's own hint as it leaves (its session id). */
function ownHint(text: string): string {
  const match = new RegExp(`To resume this conversation: rewind-demo-agent --resume (${id})`).exec(text);
  if (!match?.[1]) throw new Error(`no resume hint of the agent's on the screen:\n${text}`);
  return match[1];
}

/** The pid of the demo agent under Rewind's pid `root`. */
function agentPid(root: number): number {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args=']).toString().trim().split('\n').map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)).filter((row) => row !== null);
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (!below.has(Number(row[2])) || below.has(Number(row[1]))) continue;
      below.add(Number(row[1]));
      grew = true;
    }
  }
  const agent = rows.find((row) => Number(row[1]) !== root && below.has(Number(row[1])) && row[3]?.includes(agentScript));
  if (!agent) throw new Error('the demo agent is not running under rewind');
  return Number(agent[1]);
}

describe('leaving Rewind keeps the way back', () => {
  it("the agent's own quit (Ctrl-D): its goodbye, then the line that resumes it in Rewind with the user's flags", async () => {
    const session = await started();
    session.write('\x04');
    const { code, text } = await leftOnScreen(session);
    expect(code).toBe(0);
    const agentSession = ownHint(text);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-2)).toBe(`To resume this conversation: rewind-demo-agent --resume ${agentSession}`);
    expect(lines.at(-1)).toBe(resumeLine(agentSession));
    expect(text).toContain('Rewind demo agent');
  });

  it("Ctrl+] /quit: the agent leaves its own way (its goodbye is there, as after its own quit), then the resume line", async () => {
    const session = await started();
    session.write('\x1d');
    await session.waitFor(/◈ \//, 5_000, 'the command bar');
    session.write('/quit');
    session.write('\r');
    const { code, text } = await leftOnScreen(session);
    expect(code).toBe(0);
    const agentSession = ownHint(text);
    expect(text.trimEnd().split('\n').at(-1)).toBe(resumeLine(agentSession));
  });

  it('Ctrl-C (twice, as the agent asks): its goodbye, then the resume line', async () => {
    const session = await started();
    session.write('\x03');
    await session.waitFor(/Ctrl-C again to quit/, 5_000, "the agent's question");
    session.write('\x03');
    const { code, text } = await leftOnScreen(session);
    expect(code).toBe(0);
    expect(text.trimEnd().split('\n').at(-1)).toBe(resumeLine(ownHint(text)));
  });

  it('the agent crashing (SIGKILL): what it showed stays, then the resume line on a line of its own', async () => {
    const session = await started();
    session.write('hello');
    session.write('\r');
    await session.waitFor(/I only know these tasks.*\n>$/m, 15_000, 'the answer and the prompt back');
    process.kill(agentPid(session.pid), 'SIGKILL');
    const { code, text } = await leftOnScreen(session);
    expect(code).toBe(128 + 9);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-2)).toBe('>');
    expect(lines.at(-1)).toMatch(new RegExp(`^${escape(resumeLine('SESSION')).replace('SESSION', id)}$`));
  });

  it("Rewind killed (SIGTERM): the agent leaves its own way (its hint stays), Rewind's line after it resumes the same session in Rewind", async () => {
    const cwd = terminals.sb.repo('resumed');
    const session = await started(userFlags, cwd);
    session.write('hello');
    session.write('\r');
    await session.waitFor(/I only know these tasks.*\n>$/m, 15_000, 'the answer and the prompt back');
    session.kill('SIGTERM');
    const first = await leftOnScreen(session);
    expect(first.code).toBe(143);
    // The agent left its own way (its quit key, as /quit): its own resume hint stays above Rewind's line.
    expect(first.text).toMatch(/To resume this conversation: rewind-demo-agent --resume \S+\n+Resume in Rewind: /);
    const line = first.text.trimEnd().split('\n').at(-1) ?? '';
    const agentSession = new RegExp(`--resume (${id})$`).exec(line)?.[1] ?? '';
    expect(line).toBe(resumeLine(agentSession));
    // Run as printed (its words after `rewind`): the demo shows the first session's prompt again,
    // and its line says the same session once, not a second --resume.
    const again = await started([...userFlags, '--resume', agentSession], cwd);
    await again.waitFor(/^> hello$/m, 5_000, 'the earlier prompt, resumed');
    again.write('\x04');
    const second = await leftOnScreen(again);
    expect(second.text.trimEnd().split('\n').at(-1)).toBe(resumeLine(agentSession));
  });
});

/** `text` as a regular expression matching itself. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
