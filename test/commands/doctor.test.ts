// `rewind doctor`: each check made to pass and to fail on purpose, in real folders, with the
// real git (and, where an agent is checked, the pinned real Claude Code alone on PATH).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installedHookScript } from '../../src/agents/hookCommand.js';
import { watcherCheck } from '../../src/services/doctor/checks.js';
import type { Check } from '../../src/services/doctor/check.js';
import { pathWithOnly } from '../agents/world.js';
import { asNobody } from '../helpers/asNobody.js';
import { gitFirstOnPath } from '../helpers/gitSpy.js';
import { rewind } from '../helpers/io.js';
import { requireBuiltCli, runBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-doctor-');
});
afterEach(() => sb.cleanup());

async function doctor(cwd: string, env: NodeJS.ProcessEnv = sb.env): Promise<{ code: number; ok: boolean; checks: Record<string, Check> }> {
  const result = await rewind(['doctor', '--json'], env, cwd);
  const { ok, checks } = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
  return { code: result.code, ok, checks: Object.fromEntries(checks.map((check) => [check.name, check])) };
}

describe('rewind doctor', () => {
  it('passes a healthy project, one line per check with a summary; exit 0', async () => {
    const root = sb.repo('healthy');
    // As rewind makes it: private.
    fs.chmodSync(sb.store, 0o700);
    expect((await rewind(['snapshot'], sb.env, root)).code).toBe(0);
    const { code, ok, checks } = await doctor(root);
    expect({ code, ok }).toEqual({ code: 0, ok: true });
    for (const name of ['node', 'git', 'store home', 'project store', 'config', 'hook client', 'pty']) expect(checks[name]?.status, name).toBe('passed');
    expect(checks['hook client']?.detail).toMatch(/installed by the first `rewind -- <agent>`/);
    expect(checks['project store']?.detail).toMatch(/^1 checkpoint\(s\), .* of 5 GB$/);
    expect(checks.terminal).toMatchObject({ status: 'warned', detail: expect.stringMatching(/not a terminal/) });
    const text = await rewind(['doctor'], sb.env, root);
    expect(text.stdout).toMatch(/^✓ git +git version \d+\.\d+/m);
    expect(text.stdout).toMatch(/^! terminal .*\n +→ run `rewind -- <agent>` in a terminal/m);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, \d+ warned, 0 failed$/);
  });

  it("says whether the hook client the agents' hooks name is this rewind's", async () => {
    const root = sb.repo('hook-client');
    installedHookScript(sb.env);
    expect((await doctor(root)).checks['hook client']).toMatchObject({ status: 'passed', detail: `${path.join(sb.store, 'hooks', 'rewind-hook.sh')} (this rewind's)` });
    fs.writeFileSync(path.join(sb.store, 'hooks', 'rewind-hook.sh'), '# an older rewind\n');
    expect((await doctor(root)).checks['hook client']).toMatchObject({ status: 'warned', fix: expect.stringMatching(/rewrites it/) });
  });

  it('warns of a store home others can read, with the chmod that fixes it', async () => {
    fs.chmodSync(sb.store, 0o755);
    const { code, checks } = await doctor(sb.repo('open-home'));
    expect(code).toBe(0);
    expect(checks['store home']).toEqual({ name: 'store home', status: 'warned', detail: `${sb.store} is readable by others (mode 755): your checkpoints hold your files`, fix: `chmod 700 ${sb.store}` });
  });

  it('fails a git older than 2.25 first on PATH, and says what to do; exit 1', async () => {
    const bin = path.join(sb.base, 'old-git');
    write(bin, 'git', '#!/bin/sh\necho "git version 2.20.1"\n', 0o755);
    const root = path.join(sb.base, 'p', 'plain');
    fs.mkdirSync(root, { recursive: true });
    const { code, checks } = await doctor(root, { ...sb.env, PATH: `${bin}:${sb.env.PATH ?? ''}` });
    expect(code).toBe(1);
    expect(checks.git).toMatchObject({ status: 'failed', detail: `git version 2.20.1 (${path.join(bin, 'git')})`, fix: expect.stringMatching(/needs git 2\.25 or newer/) });
  });

  it("asks git its version as Rewind runs every git: none of the caller's variables reaches it", async () => {
    const seen = path.join(sb.base, 'git-env');
    const spy = gitFirstOnPath(sb.base, `[ "$1" = --version ] && env > '${seen}'`);
    const root = sb.repo('git-env');
    const { checks } = await doctor(root, { ...sb.env, ...spy, GIT_DIR: path.join(sb.base, 'elsewhere.git'), REWIND_DOCTOR_PROBE: 'leak' });
    expect(checks.git).toMatchObject({ status: 'passed', detail: expect.stringMatching(/^git version \d+\.\d+/) });
    const env = fs.readFileSync(seen, 'utf8');
    expect(env).toMatch(/^GIT_CONFIG_NOSYSTEM=1$/m);
    expect(env).not.toMatch(/^(GIT_DIR|REWIND_DOCTOR_PROBE)=/m);
  });

  it('asks the very git it names, found through a relative PATH entry as a shell finds it', async () => {
    const root = sb.repo('relative-path');
    write(root, 'tools/git', '#!/bin/sh\necho\necho "git version 2.99.0 (the relative one)"\n', 0o755);
    // The built CLI in the project (a relative PATH entry is relative to the process's own folder).
    const result = await runBuiltCli(['doctor', '--json'], { ...sb.env, PATH: `tools:${sb.env.PATH ?? ''}` }, root);
    const git = (JSON.parse(result.stdout) as { checks: Check[] }).checks.find((check) => check.name === 'git');
    expect(git).toMatchObject({ status: 'passed', detail: `git version 2.99.0 (the relative one) (${path.join(root, 'tools', 'git')})` });
  });

  it('fails a config.json with a bad value, naming the key', async () => {
    write(sb.configDir, 'config.json', '{ "checkpoint_max_gb": -1 }\n');
    const { code, checks } = await doctor(sb.repo('config'));
    expect(code).toBe(1);
    expect(checks.config).toMatchObject({ status: 'failed', detail: expect.stringMatching(/checkpoint_max_gb/), fix: expect.stringMatching(/rewind config validate/) });
  });

  it('fails a store home this user cannot write', () => {
    requireBuiltCli();
    fs.chmodSync(sb.base, 0o755);
    const root = sb.repo('not-mine');
    execFileSync('chown', ['-R', '65534:65534', root]);
    const result = asNobody(root, sb.env, ['doctor', '--json']);
    expect(result.code).toBe(1);
    const checks = (JSON.parse(result.stdout) as { checks: Check[] }).checks;
    expect(checks.find((check) => check.name === 'store home')).toMatchObject({ status: 'failed', detail: `${sb.store} cannot be written by this user`, fix: expect.stringMatching(/REWIND_HOME/) });
  });

  it("warns of an agent whose hooks never reached rewind in this project, and says when they last did", async () => {
    const root = sb.repo('hooks');
    const env = { ...sb.env, PATH: pathWithOnly('claude', path.join(sb.base, 'agents-bin')) };
    expect((await rewind(['snapshot'], env, root)).code).toBe(0);
    const before = await doctor(root, env);
    expect(before.checks.claude).toMatchObject({ status: 'warned', detail: expect.stringMatching(/\(Claude Code\); no hook call of claude reached rewind in this project yet$/), fix: expect.stringMatching(/rewind -- claude/) });
    write(root, 'a.txt', 'step\n');
    const { record } = await sb.open(root).snapshot({ trigger: 'hook:PreToolUse', label: 'Write a.txt', agent: 'claude' });
    const after = await doctor(root, env);
    expect(after.checks.claude).toMatchObject({ status: 'passed', detail: expect.stringContaining(`its hooks last reached rewind here at ${record.time} (#${record.id})`) });
  }, 60_000);

  it.runIf(process.platform === 'linux')('fails a watch limit below the folders the project has, warns one with little room', async () => {
    const root = sb.repo('folders');
    for (const folder of ['a', 'b', 'c/d', 'e']) write(path.join(root, folder), 'f.txt', 'x\n');
    const engine = sb.open(root);
    await engine.snapshot();
    expect(await watcherCheck(engine, () => '3\n')).toMatchObject({ status: 'failed', detail: '6 folder(s) to watch, inotify allows 3 (for all programs of this user)', fix: expect.stringMatching(/max_user_watches/) });
    expect((await watcherCheck(engine, () => '8\n')).status).toBe('warned');
    expect((await watcherCheck(engine, () => '524288\n')).status).toBe('passed');
  });
});
