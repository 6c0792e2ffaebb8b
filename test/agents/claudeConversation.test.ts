// Claude Code's conversation restored from a checkpoint, on the pinned release against the
// fake model: two prompts, each with a tool step, run headless with Rewind's hooks (no app:
// the standalone hook keeps the conversation with each step's checkpoint). Restoring the
// checkpoint before the second prompt's tool call gives a NEW session that holds the first
// prompt's exchange and not the second's: Claude resumed on it sends the model exactly that.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/restoreKit.js';
import { conversationScripts as scripts, first, second, sentText, third, rewindIn, expectResumedWithFirstExchangeOnly } from './conversationScript.js';
import { claudeSetup, createWorld, runHeadless, type AgentSetup, type AgentWorld, type Invocation } from './harness.js';
import { headlessRuns } from './standalone.js';



describe('claude conversation restore from the command line', () => {
  let world: AgentWorld;
  let setup: AgentSetup;
  let run: (prompt: string, resume?: string) => Invocation;
  let transcriptDir = '';
  let original = '';
  let originalBytes: Buffer;
  const rewind = (...args: string[]) => rewindIn(world, ...args);

  beforeAll(async () => {
    world = await createWorld(scripts);
    setup = claudeSetup(world, { hooks: {} });
    run = await headlessRuns(setup, world, 'claude/adapter.js', 'claudeAgent');
    const one = await runHeadless(run(first));
    expect(one, one.stderr).toMatchObject({ code: 0 });
    transcriptDir = path.join(setup.configDirs[0] ?? '', 'projects', fs.readdirSync(path.join(setup.configDirs[0] ?? '', 'projects'))[0] ?? '');
    original = fs.readdirSync(transcriptDir).find((file) => file.endsWith('.jsonl')) ?? '';
    const two = await runHeadless(run(second, original.replace(/\.jsonl$/, '')));
    expect(two, two.stderr).toMatchObject({ code: 0 });
    originalBytes = fs.readFileSync(path.join(transcriptDir, original));
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('keeps the conversation with each step of the agent, content-addressed in the store', () => {
    const records = world.sandbox.open(world.root).list().filter((record) => record.trigger.startsWith('PreToolUse:'));
    expect(records.map((record) => record.label)).toEqual(['Write a.txt', 'Bash echo two > b.txt']);
    expect(records.every((record) => record.conversation !== null && typeof (record.conversation as { point?: unknown }).point === 'string')).toBe(true);
  });

  it('rebuilds the conversation before the second prompt as a new session that Claude resumes with the first exchange only', async () => {
    const engine = world.sandbox.open(world.root);
    const beforeBash = engine.list().find((record) => record.label === 'Bash echo two > b.txt');
    const result = rewind('restore', String(beforeBash?.id), '--conversation', '--json');
    expect(result.status, result.stderr).toBe(0);
    const { conversation } = JSON.parse(result.stdout) as { conversation: { agent: string; file: string; session: string; messages: number; resume: string[] } };
    expect(conversation).toMatchObject({ agent: 'claude', resume: ['claude', '--resume', conversation.session] });
    expect(path.dirname(conversation.file)).toBe(transcriptDir);
    expect(path.basename(conversation.file)).toBe(`${conversation.session}.jsonl`);
    expect(fs.statSync(conversation.file).mode & 0o777).toBe(0o600);
    // The original is never changed, and --conversation leaves the files alone.
    expect(fs.readFileSync(path.join(transcriptDir, original)).equals(originalBytes)).toBe(true);
    expect(fs.readFileSync(path.join(world.root, 'b.txt'), 'utf8')).toBe('two\n');
    // Every line of the new session names it; none of the second prompt's turn is in it.
    const lines = fs.readFileSync(conversation.file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => 'sessionId' in line).every((line) => line.sessionId === conversation.session)).toBe(true);
    expect(JSON.stringify(lines)).toContain(first);
    expect(JSON.stringify(lines)).not.toContain(second);

    await expectResumedWithFirstExchangeOnly(world, run(third, conversation.session), sentText);
    expect(fs.readFileSync(path.join(transcriptDir, original)).equals(originalBytes)).toBe(true);
  }, 120_000);

  it('with --both puts the files back too, and a checkpoint without a conversation says to restore files only', () => {
    const engine = world.sandbox.open(world.root);
    const beforeBash = engine.list().find((record) => record.label === 'Bash echo two > b.txt');
    const both = rewind('restore', String(beforeBash?.id), '--both', '--yes');
    expect(both.status, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/restored checkpoint #\d+: \d+ file\(s\) changed \(\d+ written, 1 deleted\)/);
    expect(both.stdout).toMatch(/resume it with: claude --resume [0-9a-f-]{36}/);
    expect(fs.existsSync(path.join(world.root, 'b.txt'))).toBe(false);
    const manual = execFileSync(process.execPath, [builtCli, 'snapshot', '--label', 'by hand', '--json'], { cwd: world.root, env: { PATH: process.env.PATH, HOME: world.sandbox.home, REWIND_HOME: world.sandbox.store, REWIND_CONFIG_DIR: world.sandbox.configDir }, encoding: 'utf8' });
    const { id } = JSON.parse(manual) as { id: number };
    const none = rewind('restore', String(id), '--conversation');
    expect(none.status).toBe(1);
    expect(none.stderr.trim()).toMatch(/^rewind: checkpoint #\d+ kept no conversation .*: restore its files only \(--files\)$/);
    expect(rewind('restore', String(id), '--conversation', '--both').status).toBe(2);
  });
});
