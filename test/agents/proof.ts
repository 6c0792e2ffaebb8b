// The proof on the real agents, shared by the three agents' test files: one prompt makes the
// model (the fake one) write a file, edit it, and run a shell command that deletes one file
// and creates another, with a recording hook on the agent's events. Run headless and in a
// pty; each agent's file says what its payloads look like, the claims checked are the same.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, recordingHooks, runHeadless, type AgentName, type AgentSetup, type AgentWorld, type HookGroups, type RecordedEvent } from './harness.js';
import { expectFixturesCurrent, fixturesOf, readHookRecords, readTree, updatingFixtures, writeFixtures, type HookRecord } from './hookRecords.js';
import type { Script } from './fakeModel/script.js';
import { envProbe } from './world.js';
import { startInPty, type TermSession } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';

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
export const treesBeforeSteps: Record<string, string>[] = [{ 'README.md': '# project\n' }, { 'README.md': '# project\n', 'notes.txt': 'hello\n' }, { 'README.md': '# project\n', 'notes.txt': 'hello, world\n' }];
export const finalTree = { 'made.txt': 'made\n', 'notes.txt': 'hello, world\n' };

/** The project (path to text, no .git) right before each step of a script, and at its end. */
export interface StepTrees {
  before: readonly Record<string, string>[];
  final: Record<string, string>;
}
export const proofTrees: StepTrees = { before: treesBeforeSteps, final: finalTree };

/** What is the same for an agent headless and in a pty. */
export interface AgentSpec {
  agent: AgentName;
  /** The events to record (tool events with their matcher). */
  events: RecordedEvent[];
  /** The agent's pre-tool event. */
  preTool: string;
  /** The event that ends a turn (the test waits for it in a pty). */
  turnEnd: string;
  /** What each of the three pre-tool payloads holds (at least). */
  expectedCalls(root: string): Record<string, unknown>[];
  /** Real paths to placeholders, for the fixtures (beyond the project, temp and home folders). */
  placeholders(world: AgentWorld, setup: AgentSetup): [string, string][];
}

export interface HeadlessSpec {
  setup(world: AgentWorld, hooks: HookGroups): AgentSetup;
}

export interface TuiSpec {
  setup(world: AgentWorld, hooks: HookGroups): AgentSetup;
  /** Whether the prompt goes on the command line (else `drive` types it). */
  promptAsArgument: boolean;
  /** Takes the TUI from its start to the end of the turn: answers its dialogs, types the prompt if needed. */
  drive(session: TermSession, records: () => HookRecord[]): Promise<void>;
  /** Requests the agent is known to try off the machine (the jail stops them; the proxy trap sees them). */
  knownEscapes?: string[];
}

/** One finished run of the proof. */
interface ProofRun {
  world: AgentWorld;
  setup: AgentSetup;
  records: HookRecord[];
  realHomeBefore: string;
}

/** The agents' state files in the real home (by passwd, not HOME): stat before and after must match. */
function realHomeState(): string {
  const home = os.userInfo().homedir;
  return ['.claude', '.claude.json', '.gemini', '.codex']
    .map((name) => {
      const stat = fs.statSync(path.join(home, name), { throwIfNoEntry: false });
      return `${name}: ${stat ? `${stat.mtimeMs} ${stat.size}` : 'absent'}`;
    })
    .join('\n');
}

/** Makes the world, configures the agent with recording hooks, runs `body`, reads the records. */
async function prove(spec: AgentSpec, configure: (world: AgentWorld, hooks: HookGroups) => AgentSetup, body: (run: ProofRun, out: string) => Promise<void>): Promise<ProofRun> {
  const realHomeBefore = realHomeState();
  const world = await createWorld(proofScript);
  const out = path.join(world.sandbox.base, 'hook-records');
  const setup = configure(world, recordingHooks(spec.agent, out, world.root, spec.events));
  const run: ProofRun = { world, setup, records: [], realHomeBefore };
  try {
    await body(run, out);
  } catch (error) {
    // The caller gets no run to close: leave no temp folders behind.
    await world.close();
    throw error;
  }
  run.records = readHookRecords(out);
  return run;
}

/** The claims checked after every run, headless or not. */
function defineChecks(spec: AgentSpec, current: () => ProofRun, fixtureSet: string, knownEscapes: readonly string[] = []): void {
  const preTool = () => current().records.filter((record) => record.event === spec.preTool);

  it('really ran its tools: the files are as the three steps left them', () => {
    expect(readTree(current().world.root)).toEqual(finalTree);
  });

  it('fired the pre-tool hook once before each step, with the tool, its input and the session id', () => {
    const { world, records } = current();
    expect(preTool().map((record) => record.payload)).toMatchObject(spec.expectedCalls(world.root));
    const sessions = new Set(records.map((record) => record.payload.session_id));
    expect(sessions.size).toBe(1);
    expect([...sessions][0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('held each tool until its hook exited: the project at the end of each hook is the project before that step', () => {
    expect(preTool().map((record) => record.tree)).toEqual(treesBeforeSteps);
  });

  it('ran its hooks in its own environment (a variable set on the agent reaches them) and in the project', () => {
    expect(current().records.length).toBeGreaterThan(0);
    for (const record of current().records) {
      expect(record.env[envProbe.name], record.event).toBe(envProbe.value);
      expect(record.payload.cwd, record.event).toBe(current().world.root);
    }
  });

  it('kept its state in the temp config folder: HOME stays empty, the real home is untouched, nothing left the machine', () => {
    const { world, setup, records, realHomeBefore } = current();
    expect(fs.readdirSync(world.sandbox.home)).toEqual([]);
    const transcript = String(records[0]?.payload.transcript_path);
    expect(setup.configDirs.some((dir) => transcript.startsWith(`${dir}/`)), transcript).toBe(true);
    expect(fs.existsSync(transcript)).toBe(true);
    expect(realHomeState()).toBe(realHomeBefore);
    expect(world.model.escapes.filter((escape) => !knownEscapes.includes(escape))).toEqual([]);
  });

  it('played the script in order: one turn request per step, side requests never consumed it', () => {
    const { requests } = current().world.model;
    expect(requests.filter((request) => request.kind === 'turn').map((request) => request.stepIndex)).toEqual([0, 1, 2, 3]);
    expect(requests.filter((request) => request.kind === 'unknown')).toEqual([]);
  });

  it('sent payloads of the shapes in its committed fixtures (REWIND_UPDATE_HOOK_FIXTURES=1 refreshes them)', () => {
    const { world, setup, records } = current();
    const { base, home } = world.sandbox;
    const fixtures = fixturesOf(records, [[world.root, '<PROJECT>'], [home, '<HOME>'], [base, '<TMP>'], ...spec.placeholders(world, setup)]);
    const tools = new Set(spec.expectedCalls(world.root).map((call) => call.tool_name));
    expect([...fixtures.keys()].filter((name) => name.startsWith(`${spec.preTool}.`))).toHaveLength(tools.size);
    if (updatingFixtures) writeFixtures(fixtureSet, fixtures);
    expectFixturesCurrent(fixtureSet, fixtures);
  });
}

/** Defines the headless proof for one agent (`claude -p`, `gemini -p`, `codex exec`). */
export function describeHeadlessProof(spec: AgentSpec, headless: HeadlessSpec): void {
  describe(`${spec.agent}, headless, with a recording hook on its events`, () => {
    let run: ProofRun;
    let exit: { code: number | null; stdout: string; stderr: string };
    beforeAll(async () => {
      run = await prove(spec, headless.setup, async ({ setup }) => {
        exit = await runHeadless(setup.headless(proofPrompt));
      });
    });
    afterAll(async () => {
      await run?.world.close();
    });

    it("runs to its end and answers with the script's text", () => {
      expect(exit, exit.stderr).toMatchObject({ code: 0 });
      expect(exit.stdout).toContain('All done.');
    });
    defineChecks(spec, () => run, spec.agent);
  });
}

/**
 * Ends a TUI and everything it started in the terminal: a hang-up first (the terminal closing,
 * which reaches the whole foreground process group), SIGKILL to the group if that is ignored.
 */
export async function stopTui(session: TermSession): Promise<void> {
  session.hangUp();
  const exited = await Promise.race([session.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000))]);
  if (!exited) {
    try {
      process.kill(-session.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
    await session.exited;
  }
  session.close();
}

/** Defines the interactive proof for one agent: its TUI in a real pty, driven as a person would. */
export function describeTuiProof(spec: AgentSpec, tui: TuiSpec): void {
  describe(`${spec.agent}, its TUI in a pty, with a recording hook on its events`, () => {
    let run: ProofRun;
    beforeAll(async () => {
      run = await prove(spec, tui.setup, async ({ setup }, out) => {
        const start = setup.interactive(tui.promptAsArgument ? proofPrompt : undefined);
        const session = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 100, rows: 30 }, spec.agent);
        try {
          const records = () => readHookRecords(out);
          await tui.drive(session, records);
          await waitFor(() => records().some((record) => record.event === spec.turnEnd), 30_000, `the ${spec.turnEnd} hook`);
        } catch (error) {
          throw new Error(`${String(error)}\nscreen:\n${session.text()}`, { cause: error });
        } finally {
          await stopTui(session);
        }
      });
    });
    afterAll(async () => {
      await run?.world.close();
    });
    // Some payloads differ in a TUI (Claude's SessionStart adds `model`, Gemini's shell output is screen cells).
    defineChecks(spec, () => run, `${spec.agent}/tui`, tui.knownEscapes);
  });
}
