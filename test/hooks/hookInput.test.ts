// A hook's own input is the agent's (or anyone's) to choose: a stdin that never ends or keeps
// trickling, a payload of any size, a `cwd` naming another folder, a stale channel folder
// whose pid is now another process's, a `pid` entry that is a FIFO. Whatever it is given, the
// hook (the real client, dist/hooks/rewind-hook.sh, and the real `rewind hook`) returns
// within its budget, well under the agents' own 120 s for a hook (and the client's 80 s
// watchdog), exits 0, and checkpoints its own project and nothing else.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { parsePayload } from '../../src/agents/payload.js';
import { appMark, processStart } from '../../src/hooks/appMark.js';
import { HookServer, type HookRequest } from '../../src/hooks/hookServer.js';
import { maxHookPayloadBytes } from '../../src/shared/hookPayload.js';
import { injectInProcess } from '../helpers/inject.js';
import { builtCli, repoRoot, requireBuiltCli, seamsEnv } from '../helpers/restoreKit.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const client = path.join(repoRoot, 'dist', 'hooks', 'rewind-hook.sh');
/** The stdin budget the tests give `rewind hook` (seams.mjs), to stay quick; one test keeps the real one. */
const budget = seamsEnv({ REWIND_TEST_HOOK_STDIN_MS: '1000' });
/** The same budget for the app this process plays (its channel's `pid` entry gives it to the client). */
const appBudget = () => onTestFinished(injectInProcess({ waits: { 'hook-stdin': 1000 } }));
/** A hook that has not returned by then is taken for hung: under the client's 80 s watchdog, and the agents' 120 s. */
const hungAfterMs = 30_000;

let sb: Sandbox;
let servers: HookServer[] = [];
let children: { kill(signal: NodeJS.Signals): boolean }[] = [];
beforeEach(() => {
  requireBuiltCli();
  sb = createSandbox('rewind-hook-input-');
  servers = [];
  children = [];
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const server of servers) server.close();
  await sb.cleanup();
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What the hook is given on stdin: bytes, a device, or a process's output (that may never end). */
type Input = { bytes: string | Buffer } | { file: string } | { from: string };

/**
 * Runs the hook (`client`: the sh client, else `rewind hook` itself) with `input` on stdin;
 * rejects if it has not returned after `hungAfter` ms (it is killed then).
 */
function runHook(how: 'client' | 'cli', args: string[], input: Input, env: NodeJS.ProcessEnv, cwd: string, hungAfter = hungAfterMs): Promise<Ran> {
  const [command, commandArgs] = how === 'client' ? ['sh', [client, ...args]] : [process.execPath, [builtCli, 'hook', ...args]];
  let stdin: 'pipe' | number | Readable = 'pipe';
  let fd: number | undefined;
  if ('file' in input) stdin = fd = fs.openSync(input.file, 'r');
  if ('from' in input) {
    // A writer that goes on after the hook has returned: its output is the hook's stdin.
    const producer = spawn('sh', ['-c', input.from], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(producer);
    stdin = producer.stdout;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd, env: { PATH: process.env.PATH, ...env }, stdio: [stdin, 'pipe', 'pipe'] });
    if (fd !== undefined) fs.closeSync(fd);
    children.push(child);
    let stdout = '';
    let stderr = '';
    const hung = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the hook did not return within ${hungAfter} ms (stderr: ${stderr})`));
    }, hungAfter);
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(hung);
      resolve({ code, stdout, stderr });
    });
    if ('bytes' in input) {
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input.bytes);
    }
  });
}

function serve(handle: (request: HookRequest) => Promise<string | undefined>): HookServer {
  const server = HookServer.open(handle, sb.base);
  servers.push(server);
  return server;
}

/** The folders Rewind keeps checkpoints of (each store's project.json). */
function checkpointedFolders(): string[] {
  const history = path.join(sb.store, 'history');
  if (!fs.existsSync(history)) return [];
  return fs.readdirSync(history).map((id) => (JSON.parse(fs.readFileSync(path.join(history, id, 'project.json'), 'utf8')) as { path: string }).path);
}

const labels = (root: string) => sb.open(root).list().map((record) => record.label);
/** A payload that starts as a Bash call and then never ends: a byte every 0.1 s. */
const trickle = `printf '%s' '{"session_id":"s-1","tool_name":"Bash","tool_input":{"command":"ls"},"pad":"'; while printf x; do sleep 0.1; done`;
const lateLine = /^rewind: the payload on the hook's stdin did not end within \d+ s: read what came$/m;

describe('a stdin that never ends', () => {
  it('`rewind hook </dev/zero`, with the real budget: returns, exit 0, and the checkpoint is taken all the same', async () => {
    const root = sb.repo('zero');
    const ran = await runHook('cli', ['claude', 'PreToolUse'], { file: '/dev/zero' }, sb.env, root, 60_000);
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(ran.stderr).toMatch(lateLine);
    expect(labels(root)).toHaveLength(1);
    expect(checkpointedFolders()).toEqual([root]);
  }, 90_000);

  it('`rewind hook` given a payload that keeps trickling: returns, labelled from what came', async () => {
    const root = sb.repo('trickle');
    const ran = await runHook('cli', ['claude', 'PreToolUse'], { from: trickle }, { ...sb.env, ...budget }, root);
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(ran.stderr.trim()).toMatch(lateLine);
    expect(sb.open(root).list().map((record) => [record.label, record.agentSession])).toEqual([['Bash ls', 's-1']]);
  }, 60_000);

  it.each([
    ['/dev/zero', { file: '/dev/zero' }],
    ['a payload that keeps trickling', { from: trickle }],
  ] as const)('the hook client without the app, given %s: returns, exit 0, checkpointed', async (_what, input) => {
    const root = sb.repo('client-alone');
    const ran = await runHook('client', ['claude', 'PreToolUse'], input, { ...sb.env, ...budget }, root);
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(ran.stderr).toMatch(lateLine);
    expect(labels(root)).toHaveLength(1);
  }, 60_000);

  it.each([
    ['/dev/zero', { file: '/dev/zero' }],
    ['a payload that keeps trickling', { from: trickle }],
  ] as const)('the hook client in the app, given %s: hands over what came within its budget, marked cut; exit 0', async (what, input) => {
    const root = sb.repo('client-app');
    const seen: HookRequest[] = [];
    appBudget();
    const server = serve(async (request) => {
      seen.push(request);
      return undefined;
    });
    const ran = await runHook('client', ['claude', 'PreToolUse'], input, { ...sb.env, ...budget, REWIND_SOCKET: server.dir }, root);
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(ran.stderr).toMatch(lateLine);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.cut).toBe(true);
    expect(seen[0]?.payload.length).toBeLessThanOrEqual(maxHookPayloadBytes);
    if (what !== '/dev/zero') expect(parsePayload(seen[0]?.payload ?? Buffer.alloc(0), seen[0]?.cut)).toEqual({ session_id: 's-1', tool_name: 'Bash', tool_input: { command: 'ls' } });
    // Nothing of the call is left in the channel folder (a copy of /dev/zero's would fill the disk).
    expect(fs.readdirSync(server.dir).sort()).toEqual(['in', 'pid']);
  }, 60_000);

  it('the app quits (its folder removed) while the payload is still coming: exit 0, and the hook checkpoints by itself', async () => {
    const root = sb.repo('app-quits');
    appBudget();
    const server = serve(async () => undefined);
    const run = runHook('client', ['claude', 'PreToolUse'], { from: trickle }, { ...sb.env, ...budget, REWIND_SOCKET: server.dir }, root);
    await waitFor(() => fs.existsSync(server.dir) && fs.readdirSync(server.dir).some((name) => name.startsWith('req.')), 10_000, 'the hook copying its payload');
    server.close();
    const ran = await run;
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(labels(root)).toHaveLength(1);
  }, 60_000);
});

describe('a payload over the 64 MB kept', () => {
  const big = (root: string) => JSON.stringify({ session_id: 's-1', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(root, 'big.txt'), content: 'x'.repeat(maxHookPayloadBytes + 6 * 1024 * 1024) }, tool_use_id: 't-1' });

  it('through `rewind hook` (the client, no app): labelled from its head, silent', async () => {
    const root = sb.repo('big');
    expect(await runHook('client', ['claude', 'PreToolUse'], { bytes: big(root) }, sb.env, root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(sb.open(root).list().map((record) => [record.label, record.agentSession])).toEqual([['Write big.txt', 's-1']]);
  }, 60_000);

  it('through the app: its head reaches the app marked cut, and reads as the label needs', async () => {
    const root = sb.repo('big-app');
    const seen: HookRequest[] = [];
    const server = serve(async (request) => {
      seen.push(request);
      return undefined;
    });
    expect(await runHook('client', ['claude', 'PreToolUse'], { bytes: big(root) }, { ...sb.env, REWIND_SOCKET: server.dir }, root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(seen).toHaveLength(1);
    // (Never the request itself in an assertion: a failure would print its 64 MB.)
    expect(seen[0]?.cut).toBe(true);
    expect(seen[0]?.payload.length).toBe(maxHookPayloadBytes);
    const payload = parsePayload(seen[0]?.payload ?? Buffer.alloc(0), seen[0]?.cut) as { tool_name?: string; tool_input?: { file_path?: string; content?: string } };
    expect(payload.tool_name).toBe('Write');
    expect(payload.tool_input?.file_path).toBe(path.join(root, 'big.txt'));
    expect(payload.tool_input?.content?.length).toBeGreaterThan(maxHookPayloadBytes - 1024);
  }, 60_000);
});

describe("a payload's cwd never chooses the project", () => {
  const write = (cwd: string, file: string) => JSON.stringify({ session_id: 's-1', cwd, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'x' } });

  it.each(['claude', 'gemini', 'codex'])('%s: the project the hook runs in is checkpointed, never the one the payload names', async (agent) => {
    const root = sb.repo(`own-${agent}`);
    const victim = sb.repo(`victim-${agent}`);
    const event = agent === 'gemini' ? 'BeforeTool' : 'PreToolUse';
    for (const cwd of [victim, '/etc']) {
      expect(await runHook('client', [agent, event], { bytes: write(cwd, path.join(root, 'a.txt')) }, sb.env, root)).toMatchObject({ code: 0, stdout: '' });
    }
    expect(checkpointedFolders()).toEqual([root]);
    expect(labels(root)).toHaveLength(2);
  }, 60_000);

  it("Claude's own CLAUDE_PROJECT_DIR is its project; another agent's hook does not take it (inherited from a Claude session around it)", async () => {
    const root = sb.repo('claude-project');
    const inner = sb.folder('claude-project/src');
    const other = sb.repo('other');
    expect(await runHook('client', ['claude', 'PreToolUse'], { bytes: write(other, path.join(root, 'a.txt')) }, { ...sb.env, CLAUDE_PROJECT_DIR: root }, inner)).toMatchObject({ code: 0 });
    expect(checkpointedFolders()).toEqual([root]);
    const codex = sb.repo('codex-project');
    expect(await runHook('client', ['codex', 'PreToolUse'], { bytes: write(other, path.join(codex, 'a.txt')) }, { ...sb.env, CLAUDE_PROJECT_DIR: other }, codex)).toMatchObject({ code: 0 });
    expect(checkpointedFolders().sort()).toEqual([root, codex].sort());
  }, 60_000);
});

describe('a stale channel folder', () => {
  const payload = (root: string) => JSON.stringify({ session_id: 's-1', cwd: root, tool_name: 'Write', tool_input: { file_path: path.join(root, 'a.txt'), content: 'x' } });

  /** A channel folder as a killed app leaves it: `in`, and a `pid` entry made by `make`. */
  function leftover(name: string, make: (pidFile: string) => void): string {
    const dir = path.join(sb.base, name);
    fs.mkdirSync(dir, { mode: 0o700 });
    execFileSync('mkfifo', [path.join(dir, 'in')]);
    make(path.join(dir, 'pid'));
    return dir;
  }

  it.each([
    // The start time is another process's: this one's, as if it had been the app.
    ['its pid now another live process (the app killed, the pid given again)', (other: number) => `${other} ${processStart(process.pid) ?? ''}\n`],
    ['its pid now another live process, the folder written by an older Rewind (the pid alone)', (other: number) => `${other}\n`],
  ])('%s: the hook does not wait for it, and checkpoints by itself', async (_what, line) => {
    const root = sb.repo('reused');
    const other = spawn('sleep', ['600']);
    children.push(other);
    const dir = leftover('stale-app', (file) => fs.writeFileSync(file, line(other.pid ?? 0)));
    // 20 s: well under the 80 s the watchdog would have waited.
    expect(await runHook('client', ['claude', 'PreToolUse'], { bytes: payload(root) }, { ...sb.env, REWIND_SOCKET: dir }, root, 20_000)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(labels(root)).toEqual(['Write a.txt']);
    // Nothing was handed to the folder: no request, no answer FIFO.
    expect(fs.readdirSync(dir).sort()).toEqual(['in', 'pid']);
  }, 60_000);

  it('its `pid` entry a FIFO (or a link to one): the hook never opens it, and checkpoints by itself', async () => {
    const root = sb.repo('fifo-pid');
    const fifo = leftover('fifo-app', (file) => execFileSync('mkfifo', [file]));
    const linked = leftover('linked-app', (file) => fs.symlinkSync(path.join(fifo, 'pid'), file));
    for (const dir of [fifo, linked]) {
      expect(await runHook('client', ['claude', 'PreToolUse'], { bytes: payload(root) }, { ...sb.env, REWIND_SOCKET: dir }, root, 20_000)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(labels(root)).toEqual(['Write a.txt', 'Write a.txt']);
  }, 60_000);

  it("the app's own mark (pid and start time) is still taken for the app", async () => {
    const root = sb.repo('live');
    const seen: HookRequest[] = [];
    const server = serve(async (request) => {
      seen.push(request);
      return undefined;
    });
    expect(fs.readFileSync(path.join(server.dir, 'pid'), 'utf8')).toBe(appMark(process.pid));
    expect(await runHook('client', ['claude', 'PreToolUse'], { bytes: payload(root) }, { ...sb.env, REWIND_SOCKET: server.dir }, root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(seen).toHaveLength(1);
    expect(sb.open(root).initialized).toBe(false);
  }, 60_000);
});
