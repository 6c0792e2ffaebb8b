// The hook path that does not move: two installs of the package in different prefixes (an
// upgrade, another npx cache, another Node's global folder) give Codex the same hook
// definition, byte for byte, so the trust the user gave it under the first holds under the
// second, and `rewind doctor` of either install says so. The real, pinned Codex, offline
// against the fake model, in a pty.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../src/services/doctor/check.js';
import { runChild } from '../helpers/restoreKit.js';
import { withAgentHomes } from '../helpers/tempRepo.js';
import { startInPty } from '../helpers/term.js';
import { waitForQuiet } from '../helpers/waitFor.js';
import { trustAll } from '../agents/codexDialogs.js';
import { codexSetup, createWorld, type AgentWorld } from '../agents/harness.js';
import { insideRewind } from '../agents/inApp.js';
import { stopTui } from '../agents/proof.js';
import { pathWithOnly } from '../agents/world.js';
import { packAndInstall, type Installed } from './install.js';

let world: AgentWorld;
let installed: Installed;

beforeAll(async () => {
  world = await createWorld((root) => [{ root, steps: [{ text: 'Hello.' }] }]);
  installed = await packAndInstall(world.sandbox.base, 2);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

/** The arguments an installed Rewind gives a Codex session, as the program it starts receives them. */
async function codexArgsFrom(cli: string, name: string): Promise<string> {
  const recorder = path.join(world.sandbox.base, 'record-args.sh');
  const out = path.join(world.sandbox.base, `args-${name}.txt`);
  fs.writeFileSync(recorder, `#!/bin/sh\nprintf '%s\\n' "$@" > '${out}'\n`, { mode: 0o755 });
  const env = { ...world.sandbox.env, PATH: `${path.dirname(process.execPath)}:${world.sandbox.env.PATH ?? ''}` };
  const session = startInPty(process.execPath, [cli, '--agent', 'codex', '--', recorder], { cwd: world.root, env, cols: 100, rows: 30 }, 'rewind');
  try {
    await session.exited;
  } finally {
    session.close();
  }
  return fs.readFileSync(out, 'utf8');
}

describe('two installs of Rewind in different prefixes', () => {
  it("give Codex the same hook definition, naming the script under REWIND_HOME", async () => {
    const [first, second] = installed.installs;
    expect(first?.cli).not.toBe(second?.cli);
    const a = await codexArgsFrom(first?.cli ?? '', 'first');
    const b = await codexArgsFrom(second?.cli ?? '', 'second');
    expect(a).toContain(`sh ${path.join(world.sandbox.store, 'hooks', 'rewind-hook.sh')} codex PreToolUse`);
    expect(b).toBe(a);
  }, 60_000);

  it('the trust given to the hooks under the first holds under the second (the real Codex asks no more)', { timeout: 180_000 }, async () => {
    const [first, second] = installed.installs;
    const trusted = insideRewind(codexSetup(world).interactive(), world, undefined, first?.cli);
    const one = startInPty(trusted.command, trusted.args, { cwd: trusted.cwd, env: trusted.env, cols: 120, rows: 32 }, 'rewind');
    try {
      await trustAll(one);
    } finally {
      await stopTui(one);
    }
    const again = insideRewind(codexSetup(world).interactive(), world, undefined, second?.cli);
    const two = startInPty(again.command, again.args, { cwd: again.cwd, env: again.env, cols: 120, rows: 32 }, 'rewind');
    try {
      await two.waitFor(/Ask Codex to do anything|Trust all and continue/, 60_000, 'the composer or the hook review');
      // The review, when there is one, comes as Codex starts: once its screen has settled, it would be there.
      await waitForQuiet(() => two.text(), 1_500, 15_000, 'Codex settled');
      expect(two.text()).not.toContain('Trust all and continue');
      expect(two.text()).toContain('Ask Codex to do anything');
    } finally {
      await stopTui(two);
    }
  });

  it('and `rewind doctor` of either install says Codex trusts them, in the config.toml Codex wrote', async () => {
    const codexHome = path.join(world.agentDir, 'codex');
    const env = { ...withAgentHomes(world.sandbox), CODEX_HOME: codexHome, PATH: pathWithOnly('codex', path.join(world.sandbox.base, 'codex-bin')) };
    for (const install of installed.installs) {
      const result = await runChild(process.execPath, [install.cli, 'doctor', '--json'], env, world.root);
      const check = (JSON.parse(result.stdout) as { checks: Check[] }).checks.find((each) => each.name === 'codex hooks');
      expect(check, install.cli).toEqual({ name: 'codex hooks', status: 'passed', detail: `trusted (PreToolUse, UserPromptSubmit, Stop, Interrupt) in ${path.join(codexHome, 'config.toml')}` });
    }
  }, 60_000);
});
