// What `rewind doctor` checks, one function each: the tools Rewind needs, its store and
// config, the agents and whether their hooks reached Rewind (and Codex's trust in them), the
// watcher's limit, a pty, and the terminal and its keys. Each returns passed, warned or failed
// with what to do; none changes anything.
import fs from 'node:fs';
import path from 'node:path';
import type { ReadStream, WriteStream } from 'node:tty';
import { agentNames, agentNamed } from '../../agents/chooseAgent.js';
import { hookScriptPath, hookScriptState } from '../../agents/hookCommand.js';
import { gitVersionLine, requireGit, type CheckpointRecord, type ProjectCheckpoints } from '../../checkpoints/index.js';
import { loadConfigLenient } from '../../config/lenient.js';
import { rewindHome } from '../../config/paths.js';
import type { RewindConfig } from '../../config/schema.js';
import { PtySession } from '../../pty/ptySession.js';
import { formatBytes } from '../../shared/format.js';
import { messageOf } from '../../shared/errors.js';
import { openEngine } from '../../checkpoints/index.js';
import { atLeast, failed, passed, versionIn, warned, type Check } from './check.js';
import { codexHooksCheck } from './codexHooks.js';
import { onPath, versionOf } from './programs.js';
import { keysCheck } from './terminalKeys.js';

const leastGit = [2, 25];

export function nodeCheck(version = process.versions.node): Check {
  const have = versionIn(version) ?? [0, 0, 0];
  const fits = have[0] === 20 ? atLeast(have, [20, 19]) : atLeast(have, [22, 12]);
  const detail = `Node ${version} (${process.execPath})`;
  return fits ? passed('node', detail) : failed('node', detail, 'install Node 20.19+ or 22.12+ and run rewind with it');
}

export async function gitCheck(env: NodeJS.ProcessEnv): Promise<Check> {
  const found = onPath('git', env);
  if (!found) return failed('git', 'git is not on PATH', 'install git 2.25 or newer');
  // Named and asked by its full path: the git is asked from another folder.
  const file = path.resolve(found);
  const answer = await gitVersionLine(file, env);
  if ('error' in answer) return failed('git', `${file}: ${answer.error}`, 'install git 2.25 or newer');
  const version = versionIn(answer.line);
  if (!version || !atLeast(version, leastGit)) return failed('git', `${answer.line} (${file})`, 'rewind needs git 2.25 or newer: upgrade git, or put a newer one first on PATH');
  return passed('git', `${answer.line} (${file})`);
}

export async function configCheck(env: NodeJS.ProcessEnv): Promise<{ check: Check; config: RewindConfig }> {
  const { config, problems } = await loadConfigLenient(env);
  if (problems.length === 0) return { check: passed('config', 'config.json is valid (or absent: every default)'), config };
  return { check: failed('config', problems.join('; '), 'fix config.json (`rewind config validate` says what is wrong; `rewind config set KEY VALUE` writes a valid value)'), config };
}

/** The store's home: there (or to be made), writable, and private (0700). */
export function storeHomeCheck(env: NodeJS.ProcessEnv): Check {
  const home = rewindHome(env);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(home);
  } catch {
    return passed('store home', `${home} (made with the first checkpoint)`);
  }
  try {
    fs.accessSync(home, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    return failed('store home', `${home} cannot be written by this user`, `give it back to this user (\`chown -R "$(id -un)" ${home}\`) or set REWIND_HOME to a folder of yours`);
  }
  if ((stat.mode & 0o077) !== 0) return warned('store home', `${home} is readable by others (mode ${(stat.mode & 0o777).toString(8)}): your checkpoints hold your files`, `chmod 700 ${home}`);
  return passed('store home', `${home} (private, writable)`);
}

/** The hook client the agents' hook definitions name: there, and this Rewind's. */
export function hookScriptCheck(env: NodeJS.ProcessEnv): Check {
  const script = hookScriptPath(env);
  const state = hookScriptState(env);
  if (state === 'current') return passed('hook client', `${script} (this rewind's)`);
  if (state === 'other') return warned('hook client', `${script} is another rewind's (an older version or another install)`, 'the next `rewind -- <agent>` rewrites it; an agent run on its own with rewind\'s hooks meanwhile uses that other rewind');
  return passed('hook client', `${script} (installed by the first \`rewind -- <agent>\`)`);
}

/** This project's store: its checkpoints restorable, its size under the cap. */
export async function projectStoreCheck(engine: ProjectCheckpoints, config: RewindConfig): Promise<Check> {
  if (!engine.initialized) return passed('project store', `no checkpoints yet for ${engine.projectRoot}`);
  const records = engine.list();
  const broken = records.filter((record) => record.unrestorable);
  const report = await engine.report({ days: config.checkpoint_retention_days, maxGb: config.checkpoint_max_gb });
  const size = `${records.length} checkpoint(s), ${formatBytes(report.projectBytes)} of ${config.checkpoint_max_gb} GB`;
  if (broken.length > 0) return warned('project store', `${size}; ${broken.length} can no longer be restored (#${broken.map((record) => record.id).join(', #')})`, '`rewind list` says why for each; the others restore as before');
  if (report.retention.overCap) return warned('project store', `${size}: over checkpoint_max_gb`, '`rewind prune` drops the oldest half now; `rewind checkpoints` shows where the space goes');
  return passed('project store', size);
}

/** The newest checkpoint an agent's hook call took in this project, if any. */
function lastHookCall(records: readonly CheckpointRecord[], agent: string): CheckpointRecord | undefined {
  return records.findLast((record) => record.agent === agent && (record.trigger.startsWith('hook:') || record.trigger === 'end'));
}

/** Each agent Rewind hooks into: found on PATH, its version, and whether its hooks reached this project. */
export async function agentChecks(env: NodeJS.ProcessEnv, engine: ProjectCheckpoints | undefined): Promise<Check[]> {
  const records = engine?.initialized ? engine.list() : [];
  const hooked = agentNames().filter((name) => name !== 'demo' && agentNamed(name).hookEvent !== undefined);
  return Promise.all(
    hooked.map(async (name): Promise<Check> => {
      const file = onPath(name, env);
      if (!file) return passed(name, 'not installed (not on PATH)');
      const answer = await versionOf(file, env);
      const version = 'line' in answer ? answer.line : `--version failed: ${answer.error}`;
      const last = lastHookCall(records, name);
      if (last) return passed(name, `${version}; its hooks last reached rewind here at ${last.time} (#${last.id})`);
      return warned(name, `${version}; no hook call of ${name} reached rewind in this project yet`, `run it as \`rewind -- ${name}\`: rewind adds its hooks for the session${name === 'codex' ? ' (Codex asks once to trust them: accept)' : ''}`);
    }),
  );
}

/** The watcher's inotify limit against the folders of this project (Linux). */
export async function watcherCheck(engine: ProjectCheckpoints | undefined, readLimit = () => fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8')): Promise<Check> {
  if (process.platform !== 'linux') return passed('watcher', 'no watch limit to check on this system');
  let limit: number;
  try {
    limit = Number.parseInt(readLimit(), 10);
  } catch (error) {
    return warned('watcher', `the inotify watch limit cannot be read (${messageOf(error)})`, 'file changes between steps may go unseen in the app; checkpoints before each step are still taken');
  }
  if (!engine?.initialized) return passed('watcher', `inotify allows ${limit} watches (this project's folders are counted once it has a checkpoint)`);
  const folders = (await engine.folders()).length + 1;
  const detail = `${folders} folder(s) to watch, inotify allows ${limit} (for all programs of this user)`;
  const fix = `raise it: \`echo fs.inotify.max_user_watches=${Math.max(524_288, folders * 2)} | sudo tee /etc/sysctl.d/90-rewind.conf && sudo sysctl --system\``;
  if (limit < folders) return failed('watcher', detail, fix);
  if (limit < folders * 2) return warned('watcher', `${detail}: little room for other programs`, fix);
  return passed('watcher', detail);
}

/** A pty can be opened and a program run in it (the agent's pane needs one). */
export async function ptyCheck(env: NodeJS.ProcessEnv): Promise<Check> {
  try {
    const pty = await PtySession.spawn({ command: 'sh', args: ['-c', 'exit 7'], cols: 80, rows: 24, env });
    const exit = await Promise.race([pty.exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref())]);
    if (exit === undefined) {
      await pty.terminate();
      return failed('pty', 'a program started in a pty did not finish in 10 s', 'check that /dev/pts is mounted and this user may open ptys');
    }
    if (exit.exitCode !== 7) return failed('pty', `a program in a pty ended with ${exit.exitCode}, not 7`, 'check that /dev/pts is mounted and this user may open ptys');
    return passed('pty', 'a program runs in a pty');
  } catch (error) {
    return failed('pty', `no pty: ${messageOf(error)}`, 'run `npm ci` again in the package (node-pty), on Linux or macOS');
  }
}

/** The terminal rewind runs in: a terminal at all, its size and colours (its keys: keysCheck). */
export function terminalCheck(stdout: WriteStream | undefined, env: NodeJS.ProcessEnv): Check {
  if (!stdout?.isTTY) return warned('terminal', 'not a terminal (output goes to a pipe or a file)', 'run `rewind -- <agent>` in a terminal; commands like this one work anywhere');
  const colours = env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit' ? '24-bit colour' : `${stdout.getColorDepth(env)}-bit colour`;
  const detail = `${stdout.columns}x${stdout.rows}, TERM=${env.TERM ?? '(unset)'}, ${colours}`;
  if (stdout.columns < 40 || stdout.rows < 10) return warned('terminal', `${detail}: too small for the picker`, 'make the window at least 40x10');
  return passed('terminal', detail);
}

/** Every check, in the order they are printed; the terminal's are asked only of a terminal (`stdin`, `stdout`: the process's own). */
export async function runChecks(cwd: string, env: NodeJS.ProcessEnv, stdout: WriteStream | undefined, stdin?: ReadStream): Promise<Check[]> {
  const git = await gitCheck(env);
  const { check: config, config: settings } = await configCheck(env);
  let engine: ProjectCheckpoints | undefined;
  let project: Check;
  try {
    requireGit(env);
    engine = openEngine(cwd, settings, env, { allowHome: true });
    project = await projectStoreCheck(engine, settings);
  } catch (error) {
    project = failed('project store', messageOf(error), 'fix what it says, then run `rewind doctor` again');
  }
  const codexHooks = codexHooksCheck(env);
  const keys = await keysCheck(stdin, stdout);
  return [
    nodeCheck(),
    git,
    storeHomeCheck(env),
    project,
    config,
    hookScriptCheck(env),
    ...(await agentChecks(env, engine)),
    ...(codexHooks ? [codexHooks] : []),
    await watcherCheck(engine),
    await ptyCheck(env),
    terminalCheck(stdout, env),
    ...(keys ? [keys] : []),
  ];
}
