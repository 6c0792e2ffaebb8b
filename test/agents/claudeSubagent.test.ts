// Claude Code's subagents (the pinned release's `Agent` tool; `Task` in older ones) against the
// fake model: the main model hands a task to a subagent, whose own turns (its own requests,
// with its own system prompt and first user message) write a file and run a shell command,
// then both say they are done. The subagent's PreToolUse hooks carry `agent_id` and
// `agent_type` besides the main session's id, transcript and prompt id; Rewind must take a
// checkpoint before each of its calls, in the app and headless with no app.
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { anthropicView } from './fakeModel/anthropic.js';
import type { Script } from './fakeModel/script.js';
import { claudeSetup, createWorld, recordingHooks, runHeadless, type AgentWorld } from './harness.js';
import { claudeSlug, expectFixturesCurrent, fixturesOf, readHookRecords, readTree, updatingFixtures, writeFixtures } from './hookRecords.js';
import { insideRewind, proveInApp, treeFiles } from './inApp.js';
import { stopTui, type StepTrees } from './proof.js';
import { builtAdapter, proveStandalone, withAdapter } from './standalone.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { startInPty } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';

const mainPrompt = 'Delegate the notes to a helper';
/** What every subagent's prompt starts with (and no main prompt holds). */
const subagentMark = 'Subagent task';
const subagentPrompt = `${subagentMark}: write notes.txt, then tidy up`;
const shellCommand = 'rm README.md && echo made > made.txt';

/** The main conversation starts one subagent; the subagent's conversation (its prompt) writes, then runs the command. */
function subagentScripts(root: string): Script[] {
  return [
    { prompt: subagentPrompt, root, steps: [{ tool: 'write', path: 'notes.txt', content: 'hello\n' }, { tool: 'shell', command: shellCommand }, { text: 'Subagent finished.' }] },
    { prompt: mainPrompt, root, steps: [{ tool: 'agent', description: 'Write the notes', prompt: subagentPrompt }, { text: 'All done.' }] },
  ];
}

const trees: StepTrees = {
  before: [{ 'README.md': '# project\n' }, { 'README.md': '# project\n', 'notes.txt': 'hello\n' }],
  final: { 'made.txt': 'made\n', 'notes.txt': 'hello\n' },
};
const labels = [/^Write notes\.txt$/, /^Bash rm README\.md && echo made > made\.txt$/];

/** The steps the main conversation and the subagents' were played, in order: a subagent's turns are requests of their own. */
function playedTurns(world: AgentWorld): { main: (number | undefined)[]; subagent: (number | undefined)[] } {
  const turns = world.model.requests.filter((request) => request.kind === 'turn');
  const isSubagent = (body: unknown) => anthropicView(body as never).prompt.includes(subagentMark);
  return {
    main: turns.filter((request) => !isSubagent(request.body)).map((request) => request.stepIndex),
    subagent: turns.filter((request) => isSubagent(request.body)).map((request) => request.stepIndex),
  };
}

/** Rewind's checkpoints before tool calls, as `trigger label` lines, and the agent sessions they name. */
function toolCheckpoints(world: AgentWorld): { steps: string[]; sessions: Set<unknown> } {
  const records = world.sandbox.open(world.root).list();
  const steps = records.filter((record) => record.trigger.startsWith('PreToolUse:'));
  return { steps: steps.map((record) => `${record.trigger} ${record.label}`), sessions: new Set(records.filter((record) => /^(PreToolUse:|UserPromptSubmit)/.test(record.trigger)).map((record) => record.agentSession)) };
}

/** Two subagents started in one reply (run at once): each writes its file, then makes another with a command. */
const parallelTask = (name: string) => `${subagentMark} ${name}: write ${name}.txt, then make ${name}-made.txt`;
function parallelScripts(root: string): Script[] {
  return [
    ...['a', 'b'].map((name) => ({
      prompt: parallelTask(name),
      root,
      steps: [{ tool: 'write' as const, path: `${name}.txt`, content: `${name}\n` }, { tool: 'shell' as const, command: `echo made > ${name}-made.txt` }, { text: `Subagent ${name} finished.` }],
    })),
    { prompt: mainPrompt, root, steps: [{ tool: 'agent', description: 'Notes a', prompt: parallelTask('a'), also: [{ tool: 'agent', description: 'Notes b', prompt: parallelTask('b') }] }, { text: 'All done.' }] },
  ];
}

const parallelFinal = { 'README.md': '# project\n', 'a.txt': 'a\n', 'a-made.txt': 'made\n', 'b.txt': 'b\n', 'b-made.txt': 'made\n' };

/**
 * The two subagents' four calls each have a checkpoint holding the tree as it was right before
 * the call: each subagent's own calls run in order, the other's may or may not have run yet.
 * Restoring each gives exactly the tree it holds.
 */
async function expectParallelCheckpoints(world: AgentWorld): Promise<void> {
  expect(readTree(world.root)).toEqual(parallelFinal);
  const engine = world.sandbox.open(world.root);
  const steps = engine.list().filter((record) => record.trigger.startsWith('PreToolUse:'));
  expect(steps.map((record) => `${record.trigger} ${record.label}`).sort()).toEqual(['PreToolUse:Bash Bash echo made > a-made.txt', 'PreToolUse:Bash Bash echo made > b-made.txt', 'PreToolUse:Write Write a.txt', 'PreToolUse:Write Write b.txt']);
  for (const record of steps) {
    const tree = treeFiles(engine.repo.gitDir, record.tree);
    const name = /([ab])(?:-made)?\.txt$/.exec(record.label)?.[1] ?? '?';
    expect(tree['README.md'], record.label).toBe('# project\n');
    expect(tree[`${name}.txt`], record.label).toBe(record.trigger === 'PreToolUse:Write' ? undefined : `${name}\n`);
    expect(tree[`${name}-made.txt`], record.label).toBeUndefined();
  }
  for (const record of steps) {
    await engine.snapshot({ label: `before restoring ${record.label}` });
    await restoreCheckpoint(engine, record.id);
    expect(readTree(world.root), record.label).toEqual(treeFiles(engine.repo.gitDir, record.tree));
  }
}

describe("claude's subagents", () => {
  it('in the app: a checkpoint before each of the subagent’s tool calls, labelled by tool and target', { timeout: 120_000 }, async () => {
    const world = await createWorld(subagentScripts);
    try {
      await proveInApp({
        world,
        setup: (inWorld) => claudeSetup(inWorld, { allowedTools: ['Write', 'Edit', 'Bash'], hooks: {} }),
        prompt: mainPrompt,
        triggers: [/^PreToolUse:/],
        labels,
        trees,
        async afterSteps() {
          // The main model's last turn comes after the subagent's files are final: wait for it.
          const played = { main: [0, 1], subagent: [0, 1, 2] };
          await waitFor(() => isDeepStrictEqual(playedTurns(world), played), 30_000, 'the main turn after the subagent').catch(() => undefined);
          expect(playedTurns(world)).toEqual(played);
          const { steps, sessions } = toolCheckpoints(world);
          expect(steps).toEqual(['PreToolUse:Write Write notes.txt', `PreToolUse:Bash Bash ${shellCommand}`]);
          // The subagent's calls name the main session: their conversation is the main one's.
          expect(sessions.size).toBe(1);
        },
      });
    } finally {
      await world.close();
    }
  });

  it('headless with Rewind’s hooks and no app: the standalone hook checkpoints before each subagent call; payloads as in the fixtures', { timeout: 120_000 }, async () => {
    const world = await createWorld(subagentScripts);
    try {
      // The user's own hooks (a recorder) run beside Rewind's: they keep the payloads.
      const out = path.join(world.sandbox.base, 'hook-records');
      const setup = claudeSetup(world, { hooks: recordingHooks('claude', out, world.root, [{ event: 'PreToolUse', matcher: 'Write|Bash' }]) });
      const gitBefore = fingerprint(path.join(world.root, '.git'));
      const settingsBefore = fs.readFileSync(path.join(setup.configDirs[0] ?? '', 'settings.json'));
      await proveStandalone({ adapter: await builtAdapter('claude/adapter.js', 'claudeAgent'), setup: () => setup, world, prompt: mainPrompt, triggers: [/^PreToolUse:/], labels, trees });
      expect(playedTurns(world)).toEqual({ main: [0, 1], subagent: [0, 1, 2] });
      expect(toolCheckpoints(world).sessions.size).toBe(1);
      expect(fingerprint(path.join(world.root, '.git'))).toEqual(gitBefore);
      expect(fs.readFileSync(path.join(setup.configDirs[0] ?? '', 'settings.json'))).toEqual(settingsBefore);

      const records = readHookRecords(out);
      expect(records.map((record) => record.payload)).toMatchObject([
        { tool_name: 'Write', agent_id: expect.any(String), agent_type: 'general-purpose' },
        { tool_name: 'Bash', agent_id: expect.any(String), agent_type: 'general-purpose' },
      ]);
      expect(records.map((record) => record.tree)).toEqual(trees.before);
      const { base, home } = world.sandbox;
      const fixtures = fixturesOf(records, [[world.root, '<PROJECT>'], [home, '<HOME>'], [base, '<TMP>'], [setup.configDirs[0] ?? '', '<CLAUDE_CONFIG_DIR>'], [claudeSlug(world.root), '<PROJECT_SLUG>']]);
      if (updatingFixtures) writeFixtures('claude/subagent', fixtures);
      expectFixturesCurrent('claude/subagent', fixtures);
    } finally {
      await world.close();
    }
  });

  it('two subagents at once, headless with no app: a checkpoint before each of their four calls, each holding the tree as it was', { timeout: 120_000 }, async () => {
    const world = await createWorld(parallelScripts);
    try {
      const run = await runHeadless(withAdapter(claudeSetup(world, { hooks: {} }).headless(mainPrompt), await builtAdapter('claude/adapter.js', 'claudeAgent'), world));
      expect(run, run.stderr).toMatchObject({ code: 0 });
      expect(playedTurns(world).main).toEqual([0, 1]);
      await expectParallelCheckpoints(world);
    } finally {
      await world.close();
    }
  });

  it('two subagents at once, in the app: each of their four calls gets its checkpoint, holding the tree as it was', { timeout: 120_000 }, async () => {
    const world = await createWorld(parallelScripts);
    try {
      const start = insideRewind(claudeSetup(world, { allowedTools: ['Write', 'Edit', 'Bash'], hooks: {} }).interactive(mainPrompt), world);
      const session = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
      try {
        const steps = () => world.sandbox.open(world.root).list().filter((record) => record.trigger.startsWith('PreToolUse:'));
        // The main conversation's last turn comes once both subagents have finished.
        await waitFor(() => playedTurns(world).main.length === 2 && steps().length >= 4, 60_000, 'both subagents to finish, and four checkpoints').catch((error: unknown) => {
          throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
        });
      } finally {
        await stopTui(session);
      }
      await expectParallelCheckpoints(world);
    } finally {
      await world.close();
    }
  });
});
