// `rewind doctor` on Codex's trust in Rewind's hooks, with the pinned real Codex on PATH (the
// only agent there) and real config.toml files in the sandbox's CODEX_HOME (or its HOME's
// .codex): each state written as Codex's "Trust all" writes it, one `[hooks.state."<key>"]`
// table per hook (test/agents/codexHookTrust.test.ts proves the format, the keys and the
// hashes against the real Codex).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexHookHash, codexHookKey } from '../../src/agents/codex/hookTrust.js';
import { codexHookEvents } from '../../src/agents/codex/launch.js';
import { hookScriptPath, packagedHookScript } from '../../src/agents/hookCommand.js';
import type { Check } from '../../src/services/doctor/check.js';
import { codexHooksCheck } from '../../src/services/doctor/codexHooks.js';
import { rewind } from '../helpers/io.js';
import { createSandbox, withAgentHomes, write, type Sandbox } from '../helpers/tempRepo.js';
import { pathWithOnly } from '../agents/world.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
let root: string;
beforeEach(() => {
  sb = createSandbox('rewind-doctor-codex-');
  env = { ...withAgentHomes(sb), PATH: pathWithOnly('codex', path.join(sb.base, 'codex-bin')) };
  root = sb.repo('codex');
});
afterEach(() => sb.cleanup());

const codexConfig = () => path.join(env.CODEX_HOME ?? '', 'config.toml');

/** config.toml with a `[hooks.state."<key>"]` table per event of `states`, holding `fields`. */
function writeConfig(file: string, states: Record<string, string>): void {
  const tables = Object.entries(states).map(([event, fields]) => `[hooks.state.${JSON.stringify(codexHookKey(event))}]\n${fields}\n`);
  write(path.dirname(file), path.basename(file), ['model = "gpt-5.5"', '', '[hooks.state]', '', ...tables].join('\n'));
}

/** Each of Rewind's hooks trusted as running `script`. */
const trustedFor = (script: string, events: readonly string[] = codexHookEvents) => Object.fromEntries(events.map((event) => [event, `trusted_hash = "${codexHookHash(event, script)}"`]));

/** The check alone (`rewind doctor` runs every agent's --version too: seconds each time). */
const codexHooks = (withEnv = env): Check | undefined => codexHooksCheck(withEnv);

describe('rewind doctor, codex hooks', () => {
  it('warns while no trust is recorded: Codex skips them silently; the fix is its hook review', async () => {
    const lines = (await rewind(['doctor'], env, root)).stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('! codex hooks '));
    expect(lines[at]?.replace(/^! codex hooks +/, '')).toBe(`not trusted yet: PreToolUse, UserPromptSubmit, Stop, Interrupt in ${codexConfig()}; Codex skips untrusted hooks silently`);
    expect(lines[at + 1]).toMatch(/^ +→ at the next `rewind -- codex` choose "Trust all and continue" in Codex's hook review/);
    expect(codexHooks()).toEqual({
      name: 'codex hooks',
      status: 'warned',
      detail: `not trusted yet: PreToolUse, UserPromptSubmit, Stop, Interrupt in ${codexConfig()}; Codex skips untrusted hooks silently`,
      fix: 'at the next `rewind -- codex` choose "Trust all and continue" in Codex\'s hook review (or pass --dangerously-bypass-hook-trust yourself)',
    });
  });

  it('passes when each hook is trusted as rewind gives it (the client under REWIND_HOME)', async () => {
    writeConfig(codexConfig(), trustedFor(hookScriptPath(env)));
    expect(codexHooks()).toEqual({ name: 'codex hooks', status: 'passed', detail: `trusted (PreToolUse, UserPromptSubmit, Stop, Interrupt) in ${codexConfig()}` });
  });

  it('reads ~/.codex when CODEX_HOME is not set, as Codex does', async () => {
    const { CODEX_HOME: _unset, ...withoutCodexHome } = env;
    const file = path.join(sb.home, '.codex', 'config.toml');
    writeConfig(file, trustedFor(hookScriptPath(env)));
    expect(codexHooks(withoutCodexHome)).toMatchObject({ status: 'passed', detail: expect.stringContaining(`in ${file}`) });
  });

  it('says when the trust recorded is for another definition: the package path older rewinds named, or unknown', async () => {
    writeConfig(codexConfig(), trustedFor(packagedHookScript()));
    expect(codexHooks()).toMatchObject({
      status: 'warned',
      detail: `trusted for another definition (naming ${packagedHookScript()}, not ${hookScriptPath(env)}): PreToolUse, UserPromptSubmit, Stop, Interrupt in ${codexConfig()}; Codex skips untrusted hooks silently`,
      fix: expect.stringMatching(/Trust all and continue/),
    });
    writeConfig(codexConfig(), { ...trustedFor(hookScriptPath(env), ['PreToolUse', 'UserPromptSubmit']), ...trustedFor(path.join(sb.base, 'elsewhere', 'rewind-hook.sh'), ['Stop']) });
    expect((codexHooks())?.detail).toBe(
      `trusted: PreToolUse, UserPromptSubmit; not trusted yet: Interrupt; trusted for another definition (another rewind install's hook path, or an older rewind's): Stop in ${codexConfig()}; Codex skips untrusted hooks silently`,
    );
  });

  it("says which hooks are turned off in Codex's /hooks", async () => {
    writeConfig(codexConfig(), { ...trustedFor(hookScriptPath(env)), Stop: `trusted_hash = "${codexHookHash('Stop', hookScriptPath(env))}"\nenabled = false` });
    expect(codexHooks()).toMatchObject({ status: 'warned', detail: expect.stringContaining("turned off in Codex's /hooks: Stop in"), fix: "turn them on again in Codex's /hooks" });
  });

  it('warns of a config.toml that is not TOML, saying where', async () => {
    write(env.CODEX_HOME ?? '', 'config.toml', 'model = "gpt-5.5"\n[hooks.state\n');
    expect(codexHooks()).toMatchObject({ status: 'warned', detail: `${codexConfig()} cannot be read: not valid TOML at line 2: "]" expected`, fix: expect.stringMatching(/Codex reads it too/) });
  });

  it('says nothing of them when codex is not on PATH', async () => {
    const PATH = (env.PATH ?? '').split(':').filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'codex'))).join(':');
    expect(codexHooks({ ...env, PATH })).toBeUndefined();
  });
});
