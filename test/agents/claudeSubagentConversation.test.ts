// The conversation of a checkpoint taken inside a subagent (the pinned Claude Code against the
// fake model, headless with Rewind's hooks): the second prompt hands its work to a subagent,
// whose shell call gets a checkpoint. Restoring that checkpoint's conversation must give the
// main session as it was before the prompt that started the subagent: the first exchange,
// nothing of the second prompt or of the subagent, and Claude resumed on it says so.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { first, second, sentText, third, rewindIn, expectResumedWithFirstExchangeOnly } from './conversationScript.js';
import type { Script } from './fakeModel/script.js';
import { claudeSetup, createWorld, runHeadless, type AgentWorld, type Invocation } from './harness.js';
import { headlessRuns } from './standalone.js';

const subagentPrompt = 'Subagent task: make b with a command';
const scripts = (root: string): Script[] => [
  { prompt: 'Subagent task', root, steps: [{ tool: 'shell', command: 'echo two > b.txt' }, { text: 'Subagent finished.' }] },
  { prompt: 'First prompt', root, steps: [{ tool: 'write', path: 'a.txt', content: 'one\n' }, { text: 'Wrote a.' }] },
  { prompt: 'Second prompt', root, steps: [{ tool: 'agent', description: 'Make b', prompt: subagentPrompt }, { text: 'Made b.' }] },
  { prompt: 'Third prompt', root, steps: [{ text: 'Only a is there.' }] },
];

describe('the conversation of a checkpoint inside a subagent', () => {
  let world: AgentWorld;
  let run: (prompt: string, resume?: string) => Invocation;

  beforeAll(async () => {
    world = await createWorld(scripts);
    run = await headlessRuns(claudeSetup(world, { hooks: {} }), world, 'claude/adapter.js', 'claudeAgent');
    const one = await runHeadless(run(first));
    expect(one, one.stderr).toMatchObject({ code: 0 });
    const session = world.sandbox.open(world.root).list().find((record) => record.label === 'Write a.txt')?.agentSession;
    const two = await runHeadless(run(second, session));
    expect(two, two.stderr).toMatchObject({ code: 0 });
    expect(fs.readFileSync(`${world.root}/b.txt`, 'utf8')).toBe('two\n');
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('is the main session before the prompt that started the subagent: Claude resumes with the first exchange only', async () => {
    const records = world.sandbox.open(world.root).list();
    const inSubagent = records.find((record) => record.trigger === 'PreToolUse:Bash');
    expect(inSubagent?.label).toBe('Bash echo two > b.txt');
    // The subagent's call names the main session, as the main prompt's checkpoint does.
    expect(inSubagent?.agentSession).toMatch(/^[0-9a-f-]{36}$/);
    expect(inSubagent?.agentSession).toBe(records.find((record) => record.label === second)?.agentSession);

    const result = rewindIn(world, 'restore', String(inSubagent?.id), '--conversation', '--json');
    expect(result.status, result.stderr).toBe(0);
    const { conversation } = JSON.parse(result.stdout) as { conversation: { file: string; session: string } };
    const rebuilt = fs.readFileSync(conversation.file, 'utf8');
    expect(rebuilt).toContain(first);
    expect(rebuilt).not.toContain(second);
    expect(rebuilt).not.toContain(subagentPrompt);

    await expectResumedWithFirstExchangeOnly(world, run(third, conversation.session), sentText);
  }, 120_000);
});
