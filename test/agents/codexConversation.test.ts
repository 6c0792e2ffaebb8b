// Codex's conversation restored from a checkpoint, on the pinned release against the fake
// model: two prompts, each with a tool step, run headless (`codex exec`, then `codex exec
// resume`) with Rewind's hooks and no app (the standalone hook keeps the rollout with each
// step). Restoring the checkpoint before the second prompt's tool call gives a NEW rollout,
// which Codex resumes with the first prompt's exchange and not the second's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationScripts, first, second, third, rewindIn, expectResumedWithFirstExchangeOnly } from './conversationScript.js';
import { codexSetup, createWorld, runHeadless, type AgentWorld, type Invocation } from './harness.js';
import { builtAdapter, withAdapter } from './standalone.js';

/** The text of everything the model was sent in a Responses request. */
const sentInput = (body: unknown) => JSON.stringify((body as { input?: unknown }).input ?? []);

describe('codex conversation restore from the command line', () => {
  let world: AgentWorld;
  let run: (prompt: string, resume?: string) => Promise<Invocation>;
  let rollout = '';
  let originalBytes: Buffer;
  const rewind = (...args: string[]) => rewindIn(world, ...args);

  beforeAll(async () => {
    world = await createWorld(conversationScripts);
    const setup = codexSetup(world, { hooks: {}, hookTrust: 'bypass' });
    const adapter = await builtAdapter('codex/adapter.js', 'codexAgent');
    run = async (prompt, resume) => {
      const start = setup.headless(prompt);
      if (resume) start.args.splice(start.args.indexOf('exec') + 1, 0, 'resume', resume);
      return withAdapter(start, adapter, world);
    };
    const one = await runHeadless(await run(first));
    expect(one, one.stderr).toMatchObject({ code: 0 });
    const sessions = path.join(setup.configDirs[0] ?? '', 'sessions');
    rollout = path.join(sessions, (fs.readdirSync(sessions, { recursive: true }) as string[]).find((file) => file.endsWith('.jsonl')) ?? '');
    const id = /([0-9a-f-]{36})\.jsonl$/.exec(rollout)?.[1];
    const two = await runHeadless(await run(second, id));
    expect(two, two.stderr).toMatchObject({ code: 0 });
    originalBytes = fs.readFileSync(rollout);
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('rebuilds the conversation before the second prompt as a new rollout that Codex resumes with the first exchange only', async () => {
    const records = world.sandbox.open(world.root).list().filter((record) => record.trigger.startsWith('PreToolUse:'));
    expect(records.map((record) => record.label)).toEqual(['apply_patch a.txt', 'Bash echo two > b.txt']);
    const beforeBash = records[1];
    const result = rewind('restore', String(beforeBash?.id), '--conversation', '--json');
    expect(result.status, result.stderr).toBe(0);
    const { conversation } = JSON.parse(result.stdout) as { conversation: { agent: string; file: string; session: string; resume: string[] } };
    expect(conversation).toMatchObject({ agent: 'codex', resume: ['codex', 'resume', conversation.session] });
    expect(path.dirname(conversation.file)).toBe(path.dirname(rollout));
    expect(path.basename(conversation.file)).toContain(conversation.session);
    expect(fs.readFileSync(rollout).equals(originalBytes)).toBe(true);
    const text = fs.readFileSync(conversation.file, 'utf8');
    expect(text).toContain(first);
    expect(text).not.toContain(second);

    await expectResumedWithFirstExchangeOnly(world, await run(third, conversation.session), sentInput);
    expect(fs.readFileSync(rollout).equals(originalBytes)).toBe(true);
  }, 120_000);

  it('a step of the first turn has nothing to resume: Codex starts afresh', () => {
    const first = world.sandbox.open(world.root).list().find((record) => record.trigger === 'PreToolUse:apply_patch');
    const result = rewind('restore', String(first?.id), '--conversation', '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ conversation: { agent: 'codex', file: null, session: null, messages: 0, resume: ['codex'] } });
  });
});
