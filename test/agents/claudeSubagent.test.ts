// Claude Code's subagents (the pinned release's `Agent` tool; `Task` in older ones) against the
// fake model: the main model hands a task to a subagent, whose own turns (its own requests,
// with its own system prompt and first user message) write a file and run a shell command,
// then both say they are done. The subagent's PreToolUse hooks carry `agent_id` and
// `agent_type` besides the main session's id, transcript and prompt id; Rewind must take a
// checkpoint before each of its calls, in the app and headless with no app.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicView } from './fakeModel/anthropic.js';
import type { Script } from './fakeModel/script.js';
import { claudeSetup, createWorld, recordingHooks, type AgentWorld } from './harness.js';
import { claudeSlug, expectFixturesCurrent, fixturesOf, readHookRecords, updatingFixtures, writeFixtures } from './hookRecords.js';
import { proveInApp } from './inApp.js';
import type { StepTrees } from './proof.js';
import { builtAdapter, proveStandalone } from './standalone.js';
import { fingerprint } from '../helpers/fingerprint.js';

const mainPrompt = 'Delegate the notes to a helper';
const subagentPrompt = 'Subagent task: write notes.txt, then tidy up';
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

/** The steps each conversation was played, in order: the subagent's turns are requests of their own. */
function playedTurns(world: AgentWorld): { main: (number | undefined)[]; subagent: (number | undefined)[] } {
  const turns = world.model.requests.filter((request) => request.kind === 'turn');
  const isSubagent = (body: unknown) => anthropicView(body as never).prompt.includes(subagentPrompt);
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
          expect(playedTurns(world)).toEqual({ main: [0, 1], subagent: [0, 1, 2] });
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
      await proveStandalone({ adapter: await builtAdapter('claude.js', 'claudeAgent'), setup: () => setup, world, prompt: mainPrompt, triggers: [/^PreToolUse:/], labels, trees });
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
});
