// Rewind's reading of Codex's trust in its hooks (src/agents/codex/hookTrust.ts, what
// `rewind doctor` says), proven against the pinned real Codex, offline: the hash Rewind
// computes for each of its hooks is the one Codex computes (Codex's own `hooks/list`), each
// state config.toml can record (trusted, trusted for another definition, turned off, none)
// reads as Codex reads it, and a real "Trust all" in Codex's hook review is what doctor then
// reports as trusted.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexAgent } from '../../src/agents/codex/adapter.js';
import { codexHookHash, codexHookKey, codexHookTrust, type HookTrust } from '../../src/agents/codex/hookTrust.js';
import { codexHookEvents, hookOverride } from '../../src/agents/codex/launch.js';
import { hookScriptPath } from '../../src/agents/hookCommand.js';
import type { Check } from '../../src/services/doctor/check.js';
import { rewind } from '../helpers/io.js';
import { withAgentHomes } from '../helpers/tempRepo.js';
import { startInPty } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';
import { trustAll } from './codexDialogs.js';
import { listHooks, type ListedHook } from './codexHooksList.js';
import { codexSetup, createWorld, type AgentWorld } from './harness.js';
import { stopTui } from './proof.js';
import { withAdapter } from './standalone.js';
import { agentBin, baseEnv, invocation, pathWithOnly } from './world.js';

let world: AgentWorld;
let codexHome: string;
let configFile: string;
let setupConfig: string;
/** The hook client Rewind's hooks name in this world ($REWIND_HOME/hooks/rewind-hook.sh). */
let script: string;

beforeAll(async () => {
  world = await createWorld((root) => [{ root, steps: [{ text: 'Hello.' }] }]);
  codexSetup(world);
  codexHome = path.join(world.agentDir, 'codex');
  configFile = path.join(codexHome, 'config.toml');
  setupConfig = fs.readFileSync(configFile, 'utf8');
  script = hookScriptPath({ REWIND_HOME: world.sandbox.store });
});
afterAll(async () => {
  await world?.close();
});

/** What the real Codex lists for Rewind's hooks (the overrides `rewind -- codex` gives it) with `config` as its config.toml: by event. */
async function codexSays(config: string): Promise<Record<string, ListedHook | undefined>> {
  fs.writeFileSync(configFile, config);
  const overrides = codexHookEvents.flatMap((event) => ['-c', hookOverride(event, script)]);
  const hooks = await listHooks(invocation(world, agentBin('codex'), ['app-server', ...overrides], { ...baseEnv(world), CODEX_HOME: codexHome }), world.root);
  return Object.fromEntries(codexHookEvents.map((event) => [event, hooks.find((hook) => hook.key === codexHookKey(event))]));
}

/** Codex's standing as Rewind names it: a hook turned off is `disabled`, whatever its trust. */
const asRewindReads = (hook: ListedHook | undefined): HookTrust | undefined => (hook === undefined ? undefined : hook.enabled ? (hook.trustStatus as HookTrust) : 'disabled');

/** A `[hooks.state."<key>"]` table as Codex's "Trust all" writes it (below, a real one). */
const state = (event: string, fields: string) => `\n[hooks.state.${JSON.stringify(codexHookKey(event))}]\n${fields}\n`;

describe("Codex's trust in Rewind's hooks, as Rewind reads it", () => {
  it('computes for each hook the hash Codex computes, under the key Codex files it', async () => {
    const listed = await codexSays(setupConfig);
    for (const event of codexHookEvents) {
      expect(listed[event], event).toMatchObject({ currentHash: codexHookHash(event, script), trustStatus: 'untrusted', enabled: true });
      expect(listed[event]?.command).toBe(`sh ${script} codex ${event}`);
    }
    expect(codexHookTrust(setupConfig, [script]).map((event) => event.trust)).toEqual(['untrusted', 'untrusted', 'untrusted', 'untrusted']);
  });

  it('reads trusted, trusted for another definition, turned off and none as Codex does', async () => {
    const older = path.join(world.sandbox.base, 'older-install', 'hooks', 'rewind-hook.sh');
    const config = [
      setupConfig,
      '[hooks.state]',
      state('PreToolUse', `trusted_hash = "${codexHookHash('PreToolUse', script)}"`),
      state('UserPromptSubmit', `trusted_hash = "${codexHookHash('UserPromptSubmit', older)}"`),
      state('Stop', `trusted_hash = "${codexHookHash('Stop', script)}"\nenabled = false`),
    ].join('');
    const listed = await codexSays(config);
    const ours = codexHookTrust(config, [script, older]);
    expect(codexHookEvents.map((event) => asRewindReads(listed[event]))).toEqual(['trusted', 'modified', 'disabled', 'untrusted']);
    expect(ours).toEqual([
      { event: 'PreToolUse', trust: 'trusted' },
      { event: 'UserPromptSubmit', trust: 'modified', trustedFor: older },
      { event: 'Stop', trust: 'disabled' },
      { event: 'Interrupt', trust: 'untrusted' },
    ]);
  });

  it('reads the other ways TOML can write the same state as Codex does (dotted keys, inline tables, literal strings)', async () => {
    const config = [
      setupConfig,
      '[hooks]',
      `state.${JSON.stringify(codexHookKey('PreToolUse'))}.trusted_hash = '${codexHookHash('PreToolUse', script)}' # a literal string`,
      `state.${JSON.stringify(codexHookKey('Stop'))} = { trusted_hash = "${codexHookHash('Stop', script)}", enabled = true }`,
      `state.${JSON.stringify(codexHookKey('Interrupt'))} = { trusted_hash = "sha256:${'0'.repeat(64)}" }`,
      '',
    ].join('\n');
    const listed = await codexSays(config);
    expect(codexHookEvents.map((event) => asRewindReads(listed[event]))).toEqual(['trusted', 'untrusted', 'trusted', 'modified']);
    expect(codexHookTrust(config, [script]).map((event) => event.trust)).toEqual(['trusted', 'untrusted', 'trusted', 'modified']);
  });

  it('a real "Trust all" in the hook review of a `rewind -- codex` run is what rewind doctor reports as trusted', { timeout: 120_000 }, async () => {
    fs.writeFileSync(configFile, setupConfig);
    const start = withAdapter(codexSetup(world).interactive(), codexAgent, world);
    const session = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 100, rows: 30 }, 'codex');
    try {
      await trustAll(session);
      // Saved before the hang-up: the composer showing does not say the trust is on disk.
      await waitFor(() => fs.readFileSync(configFile, 'utf8').split('trusted_hash = "sha256:').length > codexHookEvents.length, 15_000, 'the trust saved');
    } finally {
      await stopTui(session);
    }
    const written = fs.readFileSync(configFile, 'utf8');
    // As Codex 0.171 writes it: one table per hook, the hash a basic string.
    for (const event of codexHookEvents) expect(written).toContain(`[hooks.state.${JSON.stringify(codexHookKey(event))}]\ntrusted_hash = "${codexHookHash(event, script)}"`);
    const env = { ...withAgentHomes(world.sandbox), CODEX_HOME: codexHome, PATH: pathWithOnly('codex', path.join(world.sandbox.base, 'codex-bin')) };
    const result = await rewind(['doctor', '--json'], env, world.root);
    const checks = (JSON.parse(result.stdout) as { checks: Check[] }).checks;
    expect(checks.find((check) => check.name === 'codex hooks')).toEqual({ name: 'codex hooks', status: 'passed', detail: `trusted (PreToolUse, UserPromptSubmit, Stop, Interrupt) in ${configFile}` });
  });
});
