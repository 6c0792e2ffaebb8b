// The headless proof, shared by the three agents' test files: one prompt makes the model
// (the fake one) write a file, edit it, and run a shell command that deletes one file and
// creates another; a recording hook runs before each step. Each agent's file says what its
// payloads look like; the claims checked are the same for all.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, recordingHooks, runHeadless, type AgentName, type AgentSetup, type AgentWorld, type Finished, type HookGroups, type RecordedEvent } from './harness.js';
import { expectFixturesCurrent, fixturesOf, readHookRecords, readTree, updatingFixtures, writeFixtures, type HookRecord } from './hookRecords.js';
import type { Script } from './fakeModel/script.js';
import { envProbe } from './world.js';

export const proofPrompt = 'Write the notes, fix them, then tidy up';
export const shellCommand = 'rm README.md && echo made > made.txt';

export function proofScript(root: string): Script[] {
  return [
    {
      root,
      steps: [
        { tool: 'write', path: 'notes.txt', content: 'hello\n' },
        { tool: 'edit', path: 'notes.txt', oldText: 'hello\n', newText: 'hello, world\n' },
        { tool: 'shell', command: shellCommand },
        { text: 'All done.' },
      ],
    },
  ];
}

/** The project right before each of the three steps, and at the end. */
export const treesBeforeSteps = [{ 'README.md': '# project\n' }, { 'README.md': '# project\n', 'notes.txt': 'hello\n' }, { 'README.md': '# project\n', 'notes.txt': 'hello, world\n' }];
export const finalTree = { 'made.txt': 'made\n', 'notes.txt': 'hello, world\n' };

export interface ProofSpec {
  agent: AgentName;
  setup(world: AgentWorld, hooks: HookGroups): AgentSetup;
  /** The events to record (the pre-tool one with its matcher). */
  events: RecordedEvent[];
  /** The agent's pre-tool event. */
  preTool: string;
  /** What each of the three pre-tool payloads holds (at least). */
  expectedCalls(root: string): Record<string, unknown>[];
  /** Real paths to placeholders, for the fixtures (beyond the project, temp and home folders). */
  placeholders(world: AgentWorld, setup: AgentSetup): [string, string][];
}

/** The agent's state files in the real home (by passwd, not HOME): stat before and after must match. */
function realHomeState(): string {
  const home = os.userInfo().homedir;
  return ['.claude', '.claude.json', '.gemini', '.codex']
    .map((name) => {
      const stat = fs.statSync(path.join(home, name), { throwIfNoEntry: false });
      return `${name}: ${stat ? `${stat.mtimeMs} ${stat.size}` : 'absent'}`;
    })
    .join('\n');
}

/** Defines the headless proof for one agent. */
export function describeHeadlessProof(spec: ProofSpec): void {
  describe(`${spec.agent}, headless, with a recording hook on every event`, () => {
    let world: AgentWorld;
    let setup: AgentSetup;
    let result: Finished;
    let records: HookRecord[];
    let realHomeBefore: string;
    const preTool = () => records.filter((record) => record.event === spec.preTool);

    beforeAll(async () => {
      realHomeBefore = realHomeState();
      world = await createWorld(proofScript);
      const out = path.join(world.sandbox.base, 'hook-records');
      setup = spec.setup(world, recordingHooks(spec.agent, out, world.root, spec.events));
      result = await runHeadless(setup.headless(proofPrompt));
      records = readHookRecords(out);
    });
    afterAll(async () => {
      await world?.close();
    });

    it('runs to its end and answers with the script\'s text', () => {
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(result.stdout).toContain('All done.');
    });

    it('really ran its tools: the files are as the three steps left them', () => {
      expect(readTree(world.root)).toEqual(finalTree);
    });

    it('fired the pre-tool hook once before each step, with the tool, its input and the session id', () => {
      const calls = preTool();
      expect(calls.map((record) => record.payload)).toMatchObject(spec.expectedCalls(world.root));
      const sessions = new Set(records.map((record) => record.payload.session_id));
      expect(sessions.size).toBe(1);
      expect([...sessions][0]).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('held each tool until its hook exited: the project at the end of each hook is the project before that step', () => {
      expect(preTool().map((record) => record.tree)).toEqual(treesBeforeSteps);
    });

    it('ran its hooks in its own environment (a variable set on the agent reaches them) and in the project', () => {
      for (const record of records) {
        expect(record.env[envProbe.name], record.event).toBe(envProbe.value);
        expect(record.payload.cwd, record.event).toBe(world.root);
      }
    });

    it('kept its state in the temp config folder: HOME stays empty, the real home is untouched, nothing left the machine', () => {
      expect(fs.readdirSync(world.sandbox.home)).toEqual([]);
      const transcript = String(records[0]?.payload.transcript_path);
      expect(setup.configDirs.some((dir) => transcript.startsWith(`${dir}/`)), transcript).toBe(true);
      expect(fs.existsSync(transcript)).toBe(true);
      expect(realHomeState()).toBe(realHomeBefore);
      expect(world.model.escapes).toEqual([]);
    });

    it('played the script in order: one turn request per step, side requests never consumed it', () => {
      const turns = world.model.requests.filter((request) => request.kind === 'turn').map((request) => request.stepIndex);
      expect(turns).toEqual([0, 1, 2, 3]);
      expect(world.model.requests.filter((request) => request.kind === 'unknown')).toEqual([]);
    });

    it('sent payloads of the shapes in its committed fixtures (REWIND_UPDATE_HOOK_FIXTURES=1 refreshes them)', () => {
      const { base, home } = world.sandbox;
      const fixtures = fixturesOf(records, [[world.root, '<PROJECT>'], [home, '<HOME>'], [base, '<TMP>'], ...spec.placeholders(world, setup)]);
      if (updatingFixtures) writeFixtures(spec.agent, fixtures);
      expectFixturesCurrent(spec.agent, fixtures);
    });
  });
}
