// The real agents inside Rewind's app (`rewind -- <agent> …`) in a pty, offline: Rewind adds
// its own hooks; each step the fake model's script makes (write, edit, shell) must then have
// a checkpoint, labelled by its tool and target, holding the tree right before it.
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { nobodyPath, nobodyProgram } from '../helpers/asNobody.js';
import { builtCli, requireBuiltCli } from '../helpers/restoreKit.js';
import { fileInTree, readTree } from '../helpers/shadow.js';
import { startInPty, type TermSession } from '../helpers/term.js';
import { waitFor } from '../helpers/waitFor.js';
import { createWorld, type AgentSetup, type AgentWorld, type Invocation } from './harness.js';
import { stopTui, proofScript, proofTrees, type StepTrees } from './proof.js';
import { fingerprint } from '../helpers/fingerprint.js';

/**
 * The agent's interactive invocation, run inside Rewind instead: the offline jail stays
 * outermost (`unshare … bridge -- <here> …`), and `node dist/cli.js --` goes in front of the
 * agent's own command.
 */
export function insideRewind(start: Invocation, world: AgentWorld, user?: number, cli = builtCli): Invocation {
  requireBuiltCli();
  const split = start.args.lastIndexOf('--');
  if (start.command !== 'unshare' || split < 0) throw new Error(`not an offline invocation: ${start.command} ${start.args.join(' ')}`);
  // As another user: inside the network namespace (made as root), Rewind and the agent run as `user`.
  const asUser = user === undefined ? [] : ['setpriv', `--reuid=${user}`, `--regid=${user}`, '--clear-groups'];
  // That user may not reach the checkout (a clone in a private folder): it runs a copy.
  const program = user === undefined ? { node: process.execPath, cli } : nobodyProgram();
  const agent = start.args.slice(split + 1).map((arg) => (user === undefined ? arg : nobodyPath(arg)));
  const args = [...start.args.slice(0, split + 1), ...asUser, program.node, program.cli, '--', ...agent];
  const env: Record<string, string> = { ...start.env, REWIND_HOME: world.sandbox.store, REWIND_CONFIG_DIR: world.sandbox.configDir };
  if (user !== undefined) env.PATH = `${path.dirname(program.node)}:${env.PATH ?? ''}`;
  return { ...start, args, env };
}

/** The files of a tree as path -> text (the proof's files are all text). */
export function treeFiles(gitDir: string, tree: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [file] of readTree(gitDir, tree)) files[file] = fileInTree(gitDir, tree, file)?.bytes.toString('utf8') ?? '';
  return files;
}

export interface InAppRun {
  world: AgentWorld;
  session: TermSession;
}

/**
 * Runs the agent's TUI inside Rewind on the proof's script and checks every step's checkpoint:
 * `labels` are the labels expected for the write, the edit and the shell command. `drive`
 * answers what the agent asks on the way (a trust dialog, say) until the files are final.
 */
export async function proveInApp(options: {
  setup: (world: AgentWorld) => AgentSetup;
  /** The prompt on the agent's command line (none: `drive` types it). */
  prompt?: string;
  labels: readonly RegExp[];
  triggers: readonly RegExp[];
  drive?: (session: TermSession) => Promise<void>;
  /** The world to run in, left open for the caller (default: a new one, closed at the end). */
  world?: AgentWorld;
  /** More checks in the same session, once the steps' checkpoints are proven. */
  afterSteps?: (run: InAppRun) => Promise<void>;
  /** Run Rewind and the agent as this (unprivileged) user id, the sandbox handed over to it. */
  user?: number;
  /** The project before each step and at the end (default: the proof's three steps). */
  trees?: StepTrees;
}): Promise<void> {
  const world = options.world ?? (await createWorld(proofScript));
  const trees = options.trees ?? proofTrees;
  let session: TermSession | undefined;
  try {
    const setup = options.setup(world);
    if (options.user !== undefined) chownTree(world.sandbox.base, options.user);
    const configBefore = setup.configDirs.map((dir) => fingerprintIfThere(path.join(dir, 'settings.json')));
    const gitBefore = fingerprint(path.join(world.root, '.git'));
    const start = insideRewind(setup.interactive(options.prompt), world, options.user);
    session = startInPty(start.command, start.args, { cwd: start.cwd, env: start.env, cols: 110, rows: 32 }, 'rewind');
    const current = session;
    await (options.drive?.(current) ?? Promise.resolve());
    const engine = () => world.sandbox.open(world.root);
    const stepCheckpoints = () => engine().list().filter((record) => options.triggers.some((trigger) => trigger.test(record.trigger)));
    // The whole final tree, not just a file the last step makes: a file exists before the command has written it.
    const finished = () => {
      try {
        return isDeepStrictEqual(readProject(world.root), trees.final);
      } catch {
        return false; // A file went away while it was read: the steps still run.
      }
    };
    await waitFor(finished, 60_000, 'the steps to run').catch((error: unknown) => {
      throw new Error(`${String(error)}\nproject: ${JSON.stringify(readProject(world.root))}\nscreen:\n${current.text()}`, { cause: error });
    });
    await waitFor(() => stepCheckpoints().length >= trees.before.length, 10_000, 'a checkpoint before each step');
    const steps = stepCheckpoints();
    expect(steps.map((record) => record.label)).toEqual(options.labels.map((label) => expect.stringMatching(label)));
    const gitDir = engine().repo.gitDir;
    steps.forEach((record, index) => expect(treeFiles(gitDir, record.tree), `the tree before step ${index + 1}`).toEqual(trees.before[index]));
    expect(steps.every((record) => typeof record.agentSession === 'string' && record.agentSession.length > 0)).toBe(true);
    expect(readProject(world.root)).toEqual(trees.final);
    // Restoring a step's checkpoint gives exactly the tree right before it.
    for (const [index, record] of steps.entries()) {
      await engine().snapshot({ label: `before restoring step ${index + 1}` });
      const { restoreCheckpoint } = await import('../../src/checkpoints/restore/restore.js');
      await restoreCheckpoint(engine(), record.id);
      expect(readProject(world.root), `restored before step ${index + 1}`).toEqual(trees.before[index]);
    }
    expect(fingerprint(path.join(world.root, '.git'))).toEqual(gitBefore);
    expect(setup.configDirs.map((dir) => fingerprintIfThere(path.join(dir, 'settings.json')))).toEqual(configBefore);
    await options.afterSteps?.({ world, session: current });
  } finally {
    if (session) await stopTui(session);
    if (!options.world) await world.close();
  }
}

/** Hands `root` and everything under it to `user` (its group too). */
function chownTree(root: string, user: number): void {
  fs.lchownSync(root, user, user);
  for (const entry of fs.readdirSync(root, { recursive: true }) as string[]) fs.lchownSync(path.join(root, entry), user, user);
}

function fingerprintIfThere(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(none)';
}

/** The project's files (no .git) as path -> text. */
function readProject(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      if (dir === root && name === '.git') continue;
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) walk(full);
      else files[path.relative(root, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return files;
}
