// Codex (the pinned release) inside Rewind's app, offline: Rewind adds its hooks as per-run
// `-c hooks.…` overrides (no config file edited) and never passes the hook-trust bypass, so
// the user trusts them in Codex's own review dialog, as here. Then a checkpoint comes before
// each apply_patch and the shell command, the trust holds for the next run of the same hooks
// (`codex exec`, no app: the hook snapshots by itself), and an interrupt makes the agent
// idle. Untrusted, the status line says how to trust them, and Enter and file changes still
// checkpoint.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInPty, type TermSession } from '../helpers/term.js';
import { seamsEnv } from '../helpers/restoreKit.js';
import { waitFor } from '../helpers/waitFor.js';
import { select, trustAll } from './codexDialogs.js';
import type { Script } from './fakeModel/script.js';
import { codexSetup, createWorld, runHeadless, type AgentWorld, type Invocation } from './harness.js';
import { insideRewind, proveInApp, treeFiles, type InAppRun } from './inApp.js';
import { finalTree, proofPrompt, proofScript, stopTui, treesBeforeSteps } from './proof.js';
import { builtAdapter, withAdapter } from './standalone.js';

const slowPrompt = 'Wait for the slow build';
/** The proof's script, and a prompt whose shell command takes long enough to be interrupted. */
const scripts = (root: string): Script[] => [{ prompt: slowPrompt, root, steps: [{ tool: 'shell', command: 'sleep 30' }, { text: 'Built.' }] }, ...proofScript(root)];
const stepLabels = [/^apply_patch notes\.txt$/, /^apply_patch notes\.txt$/, /^Bash rm README\.md && echo made > made\.txt$/];
const configOf = (world: AgentWorld) => fs.readFileSync(path.join(world.agentDir, 'codex', 'config.toml'), 'utf8');

/**
 * An offline Codex invocation with Rewind's hooks added as `rewind -- codex …` adds them (the
 * BUILT adapter: its hooks name dist/hooks/rewind-hook.sh), but run without the app: each
 * hook then snapshots by itself (into the sandbox's store).
 */
async function withRewindHooks(start: Invocation, world: AgentWorld): Promise<Invocation> {
  const run = withAdapter(start, await builtAdapter('codex/adapter.js', 'codexAgent'), world);
  expect(run.args).not.toContain('--dangerously-bypass-hook-trust');
  return run;
}

/** Types `prompt` into Codex's composer and sends it. */
async function sendPrompt(session: TermSession, prompt: string): Promise<void> {
  session.write(prompt);
  await session.waitFor((screen) => screen.includes(prompt), 5_000, 'the typed prompt');
  session.write('\r');
}

/** Trusts Rewind's hooks in Codex's review dialog, then sends the proof's prompt. */
async function trustAndPrompt(session: TermSession): Promise<void> {
  await trustAll(session);
  await sendPrompt(session, proofPrompt);
}

/** The project as the proof's script found it. */
function resetProject(world: AgentWorld): void {
  for (const name of ['notes.txt', 'made.txt']) fs.rmSync(path.join(world.root, name), { force: true });
  fs.writeFileSync(path.join(world.root, 'README.md'), '# project\n');
}

/**
 * A slow shell command, interrupted with Esc. In the app (`statusLine`), Codex's Interrupt
 * hook makes the agent idle (no Stop comes).
 */
async function interruptSlowStep({ world, session }: InAppRun, statusLine = true): Promise<void> {
  await sendPrompt(session, slowPrompt);
  const engine = () => world.sandbox.open(world.root);
  await waitFor(() => engine().list().some((record) => record.label === 'Bash sleep 30'), 30_000, 'the checkpoint before the slow command');
  if (statusLine) await session.waitFor(/agent busy/, 5_000, 'the agent busy');
  session.write('\x1b');
  await session.waitFor(/Conversation interrupted/, 15_000, 'the interrupt');
  if (statusLine) await session.waitFor(/agent idle/, 10_000, 'the agent idle after the interrupt');
}

describe('codex in the app, its hooks trusted in its own review dialog', () => {
  let world: AgentWorld;
  let configAfterApp = '';
  beforeAll(async () => {
    world = await createWorld(scripts);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('gets a checkpoint before each apply_patch and shell command, labelled by tool and files, and goes idle on an interrupt', { timeout: 180_000 }, async () => {
    await proveInApp({
      world,
      setup: (here) => codexSetup(here),
      // A prompt given as an argument would run while the review dialog is still open: typed after it.
      drive: trustAndPrompt,
      triggers: [/^PreToolUse:/],
      labels: stepLabels,
      afterSteps: interruptSlowStep,
    });
    configAfterApp = configOf(world);
  });

  it('adds the same hooks on every run: the trust given in the app holds for `codex exec` with no app, whose hook checkpoints before every step by itself', { timeout: 120_000 }, async () => {
    expect(configAfterApp, 'the trust given in the app').toMatch(/trusted_hash = "sha256:/);
    resetProject(world);
    const before = world.sandbox.open(world.root).list().length;
    const exit = await runHeadless(await withRewindHooks(codexSetup(world).headless(proofPrompt), world));
    expect(exit, exit.stderr).toMatchObject({ code: 0 });
    // Rewind's hook definitions as Codex takes them: no timeout clamped, no warning of them on each run.
    expect(exit.stderr).not.toMatch(/clamping|session-flags/);
    const added = world.sandbox.open(world.root).list().slice(before);
    expect(added.map((record) => [record.trigger, record.label])).toEqual([
      ['UserPromptSubmit', proofPrompt],
      ['PreToolUse:apply_patch', 'apply_patch notes.txt'],
      ['PreToolUse:apply_patch', 'apply_patch notes.txt'],
      ['PreToolUse:Bash', 'Bash rm README.md && echo made > made.txt'],
      // Its Stop: the turn's end, marked.
      ['end', 'end of turn'],
    ]);
    const gitDir = world.sandbox.open(world.root).repo.gitDir;
    added.slice(1, -1).forEach((record, index) => expect(treeFiles(gitDir, record.tree), `the tree before step ${index + 1}`).toEqual(treesBeforeSteps[index]));
    expect(treeFiles(gitDir, added.at(-1)?.tree ?? ''), "the turn's end: the files as its steps left them").toEqual(finalTree);
    expect(new Set(added.map((record) => record.agent))).toEqual(new Set(['codex']));
    expect(added.every((record) => /^[0-9a-f-]{36}$/.test(record.agentSession ?? ''))).toBe(true);
  });

  it("leaves Codex's config.toml as Codex alone leaves it: the same run without the app changes it the same way", { timeout: 180_000 }, async () => {
    const alone = await createWorld(scripts);
    try {
      // Rewind's hooks name the hook client under the store's home: the app's run's home here too, so the definitions Codex hashes are the same.
      const sameHome: AgentWorld = { ...alone, sandbox: { ...alone.sandbox, store: world.sandbox.store, open: (root, settings, env) => world.sandbox.open(root, settings, env) } };
      const start = await withRewindHooks(codexSetup(alone).interactive(), sameHome);
      const session = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'codex');
      try {
        await trustAndPrompt(session);
        await waitFor(() => fs.existsSync(path.join(alone.root, 'made.txt')), 60_000, 'the shell step to run');
        await interruptSlowStep({ world: sameHome, session }, false);
      } catch (error) {
        throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
      } finally {
        await stopTui(session);
      }
      const placeholders = (text: string, here: AgentWorld) => text.replaceAll(here.sandbox.base, '<TMP>').replaceAll(`:${here.model.port}/`, ':<PORT>/');
      expect(placeholders(configAfterApp, world)).toBe(placeholders(configOf(alone), alone));
    } finally {
      await alone.close();
    }
  });
});

describe('codex in the app, its hooks not trusted', () => {
  let world: AgentWorld;
  beforeAll(async () => {
    world = await createWorld(proofScript);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('says how to trust them, and checkpoints come from Enter and file changes: none from hooks', { timeout: 120_000 }, async () => {
    const start = insideRewind(codexSetup(world).interactive(), world);
    // Its notice that no hook call came: 5 s after the first prompt here, not the product's 20.
    const env = { ...start.env, ...seamsEnv({ REWIND_TEST_NO_HOOKS_MS: '5000' }) };
    const session = startInPty(start.command, start.args, { cwd: start.cwd, env, cols: 110, rows: 32 }, 'rewind');
    const engine = () => world.sandbox.open(world.root);
    try {
      await session.waitFor(/◈ rewind Trust Rewind's hooks in Codex's hook review \("Trust all"\) or pass --dangerously-bypass-hook-trust/, 30_000, 'the notice');
      await session.waitFor(/Continue without trusting/, 30_000, 'the hook review dialog');
      await select(session, 'Continue without trusting');
      session.write('\r');
      await session.waitFor(/Ask Codex to do anything/, 15_000, 'the composer');
      await sendPrompt(session, proofPrompt);
      const noticed = session.waitFor(/no hook call came from codex/, 40_000, 'the notice that no hook called');
      noticed.catch(() => undefined); // awaited below; not unhandled if a wait before fails first
      await waitFor(() => fs.existsSync(path.join(world.root, 'made.txt')), 60_000, 'the shell step to run');
      await waitFor(() => engine().list().some((record) => record.trigger === 'watch'), 15_000, 'a checkpoint after the burst of changes');
      await noticed;
    } catch (error) {
      throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
    } finally {
      await stopTui(session);
    }
    const records = engine().list();
    expect(records.map((record) => record.trigger).filter((trigger) => !['start', 'enter', 'watch'].includes(trigger))).toEqual([]);
    // Before the first step: the session start's checkpoint (an Enter that changed nothing adds none).
    const gitDir = engine().repo.gitDir;
    const firstWatch = records.findIndex((record) => record.trigger === 'watch');
    expect(treeFiles(gitDir, records[firstWatch - 1]?.tree ?? '')).toEqual(treesBeforeSteps[0]);
    await waitFor(() => JSON.stringify(treeFiles(gitDir, engine().list().at(-1)?.tree ?? '')) === JSON.stringify(finalTree), 15_000, 'a checkpoint of the files as the steps left them');
  });
});
