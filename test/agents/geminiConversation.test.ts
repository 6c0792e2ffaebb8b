// Gemini CLI's conversation restored from a checkpoint, on the pinned release against the fake
// model: two prompts, each with a tool step, run headless with Rewind's hooks (no app: the
// standalone hook keeps the conversation with each step's checkpoint). Restoring the
// checkpoint before the second prompt's tool call gives a NEW session file in the user's chats
// folder that holds the first prompt's exchange and not the second's: Gemini resumed on it
// (`--resume <id>`) sends the model exactly that; the original file is byte for byte as it was.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationScripts as scripts, first, second, third, rewindIn, expectResumedWithFirstExchangeOnly } from './conversationScript.js';
import { geminiChats, sentContents } from './geminiChats.js';
import { createWorld, geminiSetup, runHeadless, type AgentSetup, type AgentWorld, type Invocation } from './harness.js';
import { headlessRuns } from './standalone.js';

describe('gemini conversation restore from the command line', () => {
  let world: AgentWorld;
  let setup: AgentSetup;
  let run: (prompt: string, resume?: string) => Invocation;
  let chats = '';
  let original = '';
  let originalSession = '';
  let originalBytes: Buffer;
  /** The original session's file as it is now: found by its session id and its first prompt (Gemini names its files by the minute). */
  const originalNow = () => {
    const files = geminiChats(setup).holding(first).filter((file) => fs.readFileSync(path.join(chats, file), 'utf8').includes(`"sessionId":"${originalSession}"`));
    expect(files, 'the original session file, by its id').toHaveLength(1);
    return fs.readFileSync(path.join(chats, files[0] ?? original));
  };
  const rewind = (...args: string[]) => rewindIn(world, ...args);

  beforeAll(async () => {
    world = await createWorld(scripts);
    setup = geminiSetup(world);
    run = await headlessRuns(setup, world, 'gemini/adapter.js', 'geminiAgent');
    const one = await runHeadless(run(first));
    expect(one, one.stderr).toMatchObject({ code: 0 });
    const found = geminiChats(setup);
    chats = found.dir;
    original = found.holding(first)[0] ?? '';
    originalSession = (JSON.parse(fs.readFileSync(path.join(chats, original), 'utf8').split('\n')[0] ?? '{}') as { sessionId: string }).sessionId;
    const two = await runHeadless(run(second, originalSession));
    expect(two, two.stderr).toMatchObject({ code: 0 });
    expect(found.holding(second)).toEqual([original]);
    originalBytes = fs.readFileSync(path.join(chats, original));
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('keeps the conversation with each step of the agent, content-addressed in the store', () => {
    const records = world.sandbox.open(world.root).list().filter((record) => /^(BeforeTool|BeforeAgent)/.test(record.trigger));
    expect(records.map((record) => record.label)).toEqual([first, 'write_file a.txt', second, 'run_shell_command echo two > b.txt']);
    expect(records.every((record) => record.conversation !== null && typeof (record.conversation as { point?: unknown }).point === 'string')).toBe(true);
  });

  it('rebuilds the conversation before the second prompt as a new session that Gemini resumes with the first exchange only', async () => {
    const engine = world.sandbox.open(world.root);
    const beforeShell = engine.list().find((record) => record.label === 'run_shell_command echo two > b.txt');
    const result = rewind('restore', String(beforeShell?.id), '--conversation', '--json');
    expect(result.status, result.stderr).toBe(0);
    const { conversation } = JSON.parse(result.stdout) as { conversation: { agent: string; file: string; session: string; messages: number; resume: string[] } };
    // The first prompt, the call, its answer; and the call's result twice: Gemini's own resume
    // (the second run) wrote the history back with a result of its making beside the recorded one.
    expect(conversation).toMatchObject({ agent: 'gemini', resume: ['gemini', '--resume', conversation.session], messages: 5 });
    // In the user's own chats folder (Rewind's Gemini home links tmp/ to it), named as Gemini names its files.
    expect(fs.realpathSync(path.dirname(conversation.file))).toBe(fs.realpathSync(chats));
    expect(path.basename(conversation.file)).toMatch(new RegExp(`^session-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-${conversation.session.slice(0, 8)}\\.jsonl$`));
    expect(fs.statSync(conversation.file).mode & 0o777).toBe(0o600);
    // The original is never changed, and --conversation leaves the files alone.
    expect(originalNow().equals(originalBytes)).toBe(true);
    expect(fs.readFileSync(path.join(world.root, 'b.txt'), 'utf8')).toBe('two\n');
    // Every record that names the session names the new one; nothing of the second prompt's turn is in it.
    const records = fs.readFileSync(conversation.file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown> & { $set?: Record<string, unknown> });
    const named = records.flatMap((record) => [record.sessionId, record.$set?.sessionId]).filter((id) => id !== undefined);
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((id) => id === conversation.session)).toBe(true);
    expect(JSON.stringify(records)).toContain(first);
    expect(JSON.stringify(records)).not.toContain(second);
    expect(JSON.stringify(records)).not.toContain('echo two');

    await expectResumedWithFirstExchangeOnly(world, run(third, conversation.session), sentContents);
    expect(originalNow().equals(originalBytes)).toBe(true);
    // The resumed Gemini went on in the new file.
    expect(fs.readFileSync(conversation.file, 'utf8')).toContain(third);
  }, 120_000);

  it('a checkpoint before the first prompt has no message to keep: Gemini starts afresh', () => {
    const engine = world.sandbox.open(world.root);
    const beforeFirst = engine.list().find((record) => record.label === first);
    const result = rewind('restore', String(beforeFirst?.id), '--conversation', '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ conversation: { agent: 'gemini', file: null, session: null, messages: 0, resume: ['gemini'] } });
  });

  it('a checkpoint before the second prompt keeps the whole first exchange, and --both puts the files back too', () => {
    const engine = world.sandbox.open(world.root);
    const beforeSecond = engine.list().find((record) => record.label === second);
    const both = rewind('restore', String(beforeSecond?.id), '--both', '--yes');
    expect(both.status, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/restored checkpoint #\d+: \d+ file\(s\) changed \(\d+ written, 1 deleted\)/);
    expect(both.stdout).toMatch(/gemini conversation of checkpoint #\d+ rebuilt as a new session \(5 message\(s\)\)/);
    expect(both.stdout).toMatch(/resume it with: gemini --resume [0-9a-f-]{36}/);
    expect(fs.existsSync(path.join(world.root, 'b.txt'))).toBe(false);
    expect(originalNow().equals(originalBytes)).toBe(true);
  });
});
