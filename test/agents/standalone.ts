// The real agents headless, with Rewind's hooks configured as `rewind -- <agent>` would add
// them but no app running: the hook client finds no channel and checkpoints by itself
// (`rewind hook`) before every step.
import path from 'node:path';
import { expect } from 'vitest';
import type { AgentAdapter } from '../../src/agents/agentAdapter.js';
import { builtCli, repoRoot, requireBuiltCli } from '../helpers/restoreKit.js';
import { fileInTree, readTree } from '../helpers/shadow.js';
import { createWorld, runHeadless, type AgentSetup, type AgentWorld, type Invocation } from './harness.js';
import { proofPrompt, proofScript, proofTrees, type StepTrees } from './proof.js';

/** The built adapter (its hook command names the built client, dist/hooks/rewind-hook.sh). */
export async function builtAdapter(file: string, name: string): Promise<AgentAdapter> {
  requireBuiltCli();
  const module = (await import(path.join(repoRoot, 'dist', 'agents', file))) as Record<string, AgentAdapter>;
  const adapter = module[name];
  if (!adapter) throw new Error(`dist/agents/${file} has no ${name}`);
  return adapter;
}

/** `start` with what `adapter` adds to the agent's own command (after the offline jail's `--`). */
export function withAdapter(start: Invocation, adapter: AgentAdapter, world: AgentWorld): Invocation {
  const split = start.args.lastIndexOf('--');
  const [command = '', ...args] = start.args.slice(split + 1);
  // Rewind's own folders first: an adapter may keep files of its own there (Gemini's home).
  const rewindEnv = { REWIND_HOME: world.sandbox.store, REWIND_CONFIG_DIR: world.sandbox.configDir };
  const launch = adapter.launch({ command, args, env: { ...start.env, ...rewindEnv } }, { id: 'standalone', cwd: world.root });
  const env = { ...launch.env, ...rewindEnv, PATH: `${path.dirname(builtCli)}:${launch.env.PATH ?? ''}` } as Record<string, string>;
  return { ...start, args: [...start.args.slice(0, split + 1), launch.command, ...launch.args], env };
}

/**
 * Headless runs of the agent with the built adapter's hooks: `run(prompt)` starts a session,
 * `run(prompt, id)` resumes session `id` (`--resume <id>`, as Claude Code and Gemini CLI take it).
 */
export async function headlessRuns(setup: AgentSetup, world: AgentWorld, file: string, name: string): Promise<(prompt: string, resume?: string) => Invocation> {
  const adapter = await builtAdapter(file, name);
  return (prompt, resume) => {
    const start = setup.headless(prompt);
    if (resume) start.args.push('--resume', resume);
    return withAdapter(start, adapter, world);
  };
}

function treeFiles(gitDir: string, tree: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [file] of readTree(gitDir, tree)) files[file] = fileInTree(gitDir, tree, file)?.bytes.toString('utf8') ?? '';
  return files;
}

/**
 * Runs the agent headless with the adapter's hooks and no app; checks a checkpoint before every
 * step. By default on the proof's script, in a world of its own; `world` (left open for the
 * caller), `prompt` and `trees` run another script.
 */
export async function proveStandalone(options: {
  adapter: AgentAdapter;
  setup: (world: AgentWorld) => AgentSetup;
  triggers: readonly RegExp[];
  labels: readonly RegExp[];
  world?: AgentWorld;
  prompt?: string;
  trees?: StepTrees;
}): Promise<void> {
  const world = options.world ?? (await createWorld(proofScript));
  const trees = options.trees ?? proofTrees;
  try {
    const start = withAdapter(options.setup(world).headless(options.prompt ?? proofPrompt), options.adapter, world);
    const exit = await runHeadless(start);
    expect(exit, exit.stderr).toMatchObject({ code: 0 });
    const engine = world.sandbox.open(world.root);
    const steps = engine.list().filter((record) => options.triggers.some((trigger) => trigger.test(record.trigger)));
    expect(steps.map((record) => record.label)).toEqual(options.labels.map((label) => expect.stringMatching(label)));
    steps.forEach((record, index) => expect(treeFiles(engine.repo.gitDir, record.tree), `the tree before step ${index + 1}`).toEqual(trees.before[index]));
    expect(steps.every((record) => record.agent === options.adapter.name && record.session === null)).toBe(true);
  } finally {
    if (!options.world) await world.close();
  }
}
