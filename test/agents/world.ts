// The hermetic place an agent runs in: a sandbox (temp HOME, a git project), the fake model,
// a folder for the agent's own config, and the environment every agent gets. Nothing here
// points at the real home, and the agent runs offline (offline/jail.ts).
import fs from 'node:fs';
import path from 'node:path';
import { startFakeModel, type FakeModel } from './fakeModel/server.js';
import type { Script } from './fakeModel/script.js';
import { offline } from './offline/jail.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * The pinned CLI `name` as npm installed it (node_modules/.bin), or the program named by
 * REWIND_TEST_<NAME>_BIN (to try the proof on another release before pinning it).
 */
export function agentBin(name: 'claude' | 'gemini' | 'codex'): string {
  const bin = process.env[`REWIND_TEST_${name.toUpperCase()}_BIN`] || path.join(repoRoot, 'node_modules', '.bin', name);
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run \`npm ci\` (the agent CLIs are pinned devDependencies)`);
  return bin;
}

/**
 * A PATH with this Node, the system's programs and, of the agents, only the pinned `name`
 * (linked into `dir`): `rewind doctor` run with it asks no other agent for its version.
 */
export function pathWithOnly(name: 'claude' | 'gemini' | 'codex', dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, name))) fs.symlinkSync(agentBin(name), path.join(dir, name));
  return [dir, path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'].join(':');
}

export interface AgentWorld {
  sandbox: Sandbox;
  /** The project the agent works in (a git repo with one commit). */
  root: string;
  /** Where each agent's config folder goes (outside HOME, so HOME stays empty). */
  agentDir: string;
  model: FakeModel;
  close(): Promise<void>;
}

/** A process to start: already wrapped to run offline. */
export interface Invocation {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/**
 * Hook settings in the matcher-group shape all three agents share (Claude's; Gemini and Codex
 * took it over): event name to groups. `timeout` is in seconds for Claude and Codex, ms for Gemini.
 */
export type HookGroups = Record<string, { matcher?: string; hooks: { type: 'command'; command: string; timeout?: number }[] }[]>;

/** One agent, configured in a world: how to start it. */
export interface AgentSetup {
  /** The agent's config folders: the only places it should write its state. */
  configDirs: string[];
  /** `-p`-style: one prompt, run to the end, exit. */
  headless(prompt: string): Invocation;
  /** The TUI, for a pty; with `prompt`, submitted at start where the agent allows it. */
  interactive(prompt?: string): Invocation;
}

/** Makes the sandbox, the project and the fake model (playing `scripts`). */
export async function createWorld(scripts: (root: string) => Script[]): Promise<AgentWorld> {
  const sandbox = createSandbox('rewind-agent-');
  const root = sandbox.repo('project');
  const agentDir = path.join(sandbox.base, 'agent');
  fs.mkdirSync(agentDir, { mode: 0o700 });
  fs.mkdirSync(path.join(sandbox.base, 'tmp'));
  const model = await startFakeModel({ scripts: scripts(root), socketPath: path.join(agentDir, 'model.sock') });
  return {
    sandbox,
    root,
    agentDir,
    model,
    async close() {
      await model.close();
      await sandbox.cleanup();
    },
  };
}

/** A variable set on every agent: a hook that sees it inherited the agent's environment. */
export const envProbe = { name: 'REWIND_TEST_ENV_PROBE', value: 'set-on-the-agent' };

/**
 * What every agent's environment starts from: the sandbox's (empty) HOME, temp and XDG folders, a PATH
 * with this Node, the fake model as the proxy for anything that honours proxy settings (it
 * records such attempts as escapes), and git kept off the system's config.
 */
export function baseEnv(world: AgentWorld): Record<string, string> {
  const { home, base } = world.sandbox;
  const proxy = world.model.url;
  return {
    PATH: [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'].join(':'),
    HOME: home,
    USER: 'tester',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    TMPDIR: path.join(base, 'tmp'),
    // Outside HOME, so that HOME staying empty shows no agent wrote its config there (Claude's
    // TUI registers a URL handler in $XDG_DATA_HOME/applications).
    XDG_CONFIG_HOME: path.join(base, 'xdg', 'config'),
    XDG_CACHE_HOME: path.join(base, 'xdg', 'cache'),
    XDG_DATA_HOME: path.join(base, 'xdg', 'data'),
    XDG_STATE_HOME: path.join(base, 'xdg', 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
    [envProbe.name]: envProbe.value,
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    ALL_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
}

/** An invocation of `bin args` in the project, offline. */
export function invocation(world: AgentWorld, bin: string, args: string[], env: Record<string, string>): Invocation {
  const jailed = offline(world.model, { command: bin, args });
  return { ...jailed, env, cwd: world.root };
}
