// Codex (the pinned release) against the fake model, `codex exec` and its TUI in a pty: its
// PreToolUse hook, given as per-run `-c hooks.…` overrides, fires before both apply_patch
// calls and the shell command (reported as Bash) and holds each until it exits. Codex skips
// hooks nobody trusted: headless passes --dangerously-bypass-hook-trust; the TUI is trusted
// through its own review dialog, and that trust then holds for later runs of the same hooks.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexSetup, createWorld, recordingHooks, runHeadless, type AgentWorld } from './harness.js';
import { readHookRecords, type HookRecord } from './hookRecords.js';
import { patchFor } from './fakeModel/openai.js';
import { describeHeadlessProof, describeTuiProof, proofPrompt, proofScript, shellCommand, stopTui, type AgentSpec } from './proof.js';
import { startInPty } from '../helpers/term.js';
import { trustAll } from './codexDialogs.js';
import { waitFor } from '../helpers/waitFor.js';

const matcher = 'apply_patch|Bash';

const codex: AgentSpec = {
  agent: 'codex',
  events: [
    { event: 'PreToolUse', matcher },
    { event: 'PostToolUse', matcher },
    { event: 'UserPromptSubmit' },
    { event: 'Stop' },
    { event: 'SessionStart' },
    { event: 'SessionEnd' },
    { event: 'Interrupt' },
    { event: 'PermissionRequest' },
  ],
  preTool: 'PreToolUse',
  turnEnd: 'Stop',
  expectedCalls: () => [
    { hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patchFor({ tool: 'write', path: 'notes.txt', content: 'hello\n' }) }, tool_use_id: expect.any(String) },
    { tool_name: 'apply_patch', tool_input: { command: patchFor({ tool: 'edit', path: 'notes.txt', oldText: 'hello\n', newText: 'hello, world\n' }) } },
    { tool_name: 'Bash', tool_input: { command: shellCommand } },
  ],
  placeholders: (_world, setup) => [[setup.configDirs[0] ?? '', '<CODEX_HOME>']],
};

describeHeadlessProof(codex, { setup: (world, hooks) => codexSetup(world, { hooks, hookTrust: 'bypass' }) });

describeTuiProof(codex, {
  setup: (world, hooks) => codexSetup(world, { hooks, hookTrust: 'review' }),
  // A prompt given as an argument runs while the review dialog is still open: its steps get no hook.
  promptAsArgument: false,
  async drive(session) {
    await trustAll(session);
    session.write(proofPrompt);
    await session.waitFor(new RegExp(proofPrompt), 5_000, 'the typed prompt');
    session.write('\r');
  },
  // The TUI fetches an announcement tip from GitHub; no setting was found to stop it.
  knownEscapes: ['CONNECT raw.githubusercontent.com:443'],
});

describe('codex hook trust, given once in its review dialog', () => {
  let world: AgentWorld;
  const hooksFor = (out: string) => recordingHooks('codex', out, world.root, [{ event: 'PreToolUse', matcher }, { event: 'UserPromptSubmit' }]);
  const resetProject = () => {
    for (const name of ['notes.txt', 'made.txt']) fs.rmSync(path.join(world.root, name), { force: true });
    fs.writeFileSync(path.join(world.root, 'README.md'), '# project\n');
  };
  const runExec = async (out: string): Promise<{ code: number | null; records: HookRecord[] }> => {
    resetProject();
    const { code } = await runHeadless(codexSetup(world, { hooks: hooksFor(out), hookTrust: 'review' }).headless(proofPrompt));
    return { code, records: readHookRecords(out) };
  };

  beforeAll(async () => {
    world = await createWorld(proofScript);
    const start = codexSetup(world, { hooks: hooksFor(path.join(world.sandbox.base, 'trusted')), hookTrust: 'review' }).interactive();
    const session = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 100, rows: 30 }, 'codex');
    try {
      await trustAll(session);
      // Saved before the hang-up: the composer showing does not say the trust is on disk.
      const configFile = path.join(world.agentDir, 'codex', 'config.toml');
      await waitFor(() => fs.existsSync(configFile) && fs.readFileSync(configFile, 'utf8').split('trusted_hash = "sha256:').length > 2, 15_000, 'the trust saved').catch(() => undefined); // the first test says what is missing
    } finally {
      await stopTui(session);
    }
  });
  afterAll(async () => {
    await world?.close();
  });

  it('stores a content hash per hook in its own config.toml, keyed by the source of the -c overrides', () => {
    const config = fs.readFileSync(path.join(world.agentDir, 'codex', 'config.toml'), 'utf8');
    for (const key of ['pre_tool_use:0:0', 'user_prompt_submit:0:0']) expect(config).toMatch(new RegExp(`\\[hooks\\.state\\."/<session-flags>/config\\.toml:${key}"\\]\\ntrusted_hash = "sha256:[0-9a-f]{64}"`));
  });

  it('runs the same hooks in later runs without the bypass flag', async () => {
    const { code, records } = await runExec(path.join(world.sandbox.base, 'trusted'));
    expect(code).toBe(0);
    expect(records.map((record) => `${record.event}:${String(record.payload.tool_name ?? '')}`)).toEqual(['UserPromptSubmit:', 'PreToolUse:apply_patch', 'PreToolUse:apply_patch', 'PreToolUse:Bash']);
  });

  it('skips, silently, hooks whose command changed: the hash no longer matches', async () => {
    const { code, records } = await runExec(path.join(world.sandbox.base, 'changed'));
    expect(code).toBe(0);
    expect(records).toEqual([]);
  });
});
