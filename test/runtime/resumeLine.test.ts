// The line Rewind adds as it leaves (issue 24, item 5): the user's own command, inside Rewind,
// resumed in the agent's session; drawn on a line of its own below the agent's last words.
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { claudeAgent } from '../../src/agents/claude/adapter.js';
import { codexAgent } from '../../src/agents/codex/adapter.js';
import { demoAgent } from '../../src/agents/demo/adapter.js';
import { genericAgent } from '../../src/agents/generic.js';
import type { AgentAdapter } from '../../src/agents/agentAdapter.js';
import { ScreenModel } from '../../src/pty/screen.js';
import { AdapterGuard } from '../../src/agents/adapterGuard.js';
import { resumeCommand, withResumeLine } from '../../src/runtime/session/resumeLine.js';

const guard = (agent: AgentAdapter) => new AdapterGuard(agent, () => undefined);
const base = { cwd: '/p', startedIn: '/p' };

describe('resumeCommand', () => {
  it("is the user's command inside Rewind, their flags kept, their own resume options replaced by the session's", () => {
    const args = ['--permission-mode', 'acceptEdits', '--resume', 'old', '-c', 'a prompt'];
    expect(resumeCommand({ ...base, command: 'claude', args, agent: guard(claudeAgent), session: 'new' })).toEqual(['rewind', '--', 'claude', '--permission-mode', 'acceptEdits', '--resume', 'new']);
    expect(resumeCommand({ ...base, command: 'codex', args: ['-m', 'gpt', 'resume', 'old'], agent: guard(codexAgent), session: 'new' })).toEqual(['rewind', '--', 'codex', '-m', 'gpt', 'resume', 'new']);
  });

  it('names the agent where the command alone would not pick it, and the folder where it is not the one Rewind runs in', () => {
    expect(resumeCommand({ cwd: '/elsewhere', startedIn: '/p', command: 'node', args: ['agent.js'], agent: guard(demoAgent), session: 's' })).toEqual(['rewind', '-C', '/elsewhere', '--agent', 'demo', '--', 'node', 'agent.js', '--resume', 's']);
  });

  it('is none without a session, or for an agent whose conversation is not resumed (a shell)', () => {
    expect(resumeCommand({ ...base, command: 'claude', args: [], agent: guard(claudeAgent), session: undefined })).toBeUndefined();
    expect(resumeCommand({ ...base, command: 'bash', args: [], agent: guard(genericAgent), session: 's' })).toBeUndefined();
  });
});

/** What a terminal shows after the agent's output `agent`, redrawn as last words, then the resume line. */
async function shown(agent: string): Promise<string[]> {
  const screen = new ScreenModel(30, 6, 100);
  screen.write(agent);
  await screen.flush();
  const outer = new xtermHeadless.Terminal({ cols: 60, rows: 10, allowProposedApi: true });
  await new Promise<void>((resolve) => outer.write(withResumeLine(screen.lastWords(), ['rewind', '--', 'x y']), resolve));
  screen.dispose();
  const lines: string[] = [];
  for (let y = 0; y < outer.rows; y++) lines.push(outer.buffer.active.getLine(y)?.translateToString(true) ?? '');
  outer.dispose();
  return lines.slice(0, lines.findLastIndex((line) => line !== '') + 1);
}

describe('withResumeLine', () => {
  const line = "Resume in Rewind: rewind -- 'x y'";
  it('goes on the line after the last words, wherever the agent left its cursor', async () => {
    expect(await shown('bye\r\n')).toEqual(['bye', line]);
    expect(await shown('agent$ ')).toEqual(['agent$', line]);
    expect(await shown('bye')).toEqual(['bye', line]);
    expect(await shown('top\r\n\r\nbottom\x1b[1;2H')).toEqual(['top', '', 'bottom', line]);
    expect(await shown('')).toEqual([line]);
  });
});
