// The hook channel end to end: the real hook client (dist/hooks/rewind-hook.sh, as agents
// run it) and the app's end (HookServer). The payload arrives exactly, the client waits for
// the answer and exits 0; without the app, or with the app gone, the client takes the
// checkpoint by itself (`rewind hook`); bad payloads are a stderr line, never a failure.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appMark } from '../../src/hooks/appMark.js';
import { HookServer, type HookRequest } from '../../src/hooks/hookServer.js';
import { repoRoot, requireBuiltCli } from '../helpers/restoreKit.js';
import { hookClient, runHookClient } from '../helpers/hookClient.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const client = hookClient;

let sb: Sandbox;
let servers: HookServer[] = [];
beforeEach(() => {
  requireBuiltCli();
  sb = createSandbox('rewind-hook-channel-');
  servers = [];
});
afterEach(async () => {
  for (const server of servers) server.close();
  await sb.cleanup();
});

const runClient = runHookClient;

function serve(handle: (request: HookRequest) => Promise<string | undefined>): HookServer {
  const server = HookServer.open(handle, sb.base);
  servers.push(server);
  return server;
}

const write = (root: string) => JSON.stringify({ session_id: 's-1', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(root, 'a.txt'), content: 'é\n' } });

describe('the hook channel', () => {
  it('hands the payload over exactly and waits for the answer; the client exits 0 with nothing on stdout', async () => {
    const root = sb.repo('channel');
    const seen: HookRequest[] = [];
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const server = serve(async (request) => {
      seen.push(request);
      await answered;
      return undefined;
    });
    const huge = JSON.stringify({ tool_name: 'Write', tool_input: { content: 'x'.repeat(3 * 1024 * 1024) }, note: 'line\nbreak ünïcode' });
    let exited = false;
    const run = runClient(['claude', 'PreToolUse'], huge, { ...sb.env, REWIND_SOCKET: server.dir }, root).finally(() => (exited = true));
    // The client waits for the app's answer: the agent's tool waits with it.
    await waitFor(() => seen.length === 1, 10_000, 'the call to reach the app');
    expect(exited).toBe(false);
    release();
    await expect(run).resolves.toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ agent: 'claude', event: 'PreToolUse' });
    expect(seen[0]?.payload.toString('utf8')).toBe(huge);
    expect(fs.readdirSync(server.dir).sort()).toEqual(['in', 'pid']);
  });

  it("says what the app answers on the hook's stderr, and serves many calls at once", async () => {
    const root = sb.repo('many');
    const server = serve(async (request) => (request.payload.toString() === 'bad' ? 'the PreToolUse payload was not JSON' : undefined));
    const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => runClient(['claude', 'PreToolUse'], i === 5 ? 'bad' : `{"n":${i}}`, { REWIND_SOCKET: server.dir }, root)));
    expect(runs.map((run) => run.code)).toEqual(Array(12).fill(0));
    expect(runs[5]?.stderr).toBe('rewind: the PreToolUse payload was not JSON\n');
    expect(runs.filter((run) => run.stderr !== '')).toHaveLength(1);
  });

  it('without the app, the hook checkpoints by itself; the same when the app is gone', async () => {
    const root = sb.repo('alone');
    expect(await runClient(['claude', 'PreToolUse'], write(root), sb.env, root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(sb.open(root).list().map((record) => [record.trigger, record.label, record.agent, record.agentSession])).toEqual([['PreToolUse:Write', 'Write a.txt', 'claude', 's-1']]);
    // An app that died: its channel folder is still there, its pid is not alive.
    const dead = path.join(sb.base, 'dead-app');
    fs.mkdirSync(dead, { mode: 0o700 });
    spawnSyncMkfifo(path.join(dead, 'in'));
    fs.writeFileSync(path.join(dead, 'pid'), '999999\n');
    expect(await runClient(['claude', 'PreToolUse'], write(root), { ...sb.env, REWIND_SOCKET: dead }, root)).toMatchObject({ code: 0, stdout: '' });
    expect(sb.open(root).list()).toHaveLength(2);
  });

  // Killed: its channel folder stays. Quitting: it removes the folder as it goes.
  it.each([
    ['is killed', false],
    ['quits (its channel folder removed with it)', true],
  ])('an app that %s while a call waits: the watchdog answers, and the hook checkpoints by itself', async (_how, quits) => {
    const root = sb.repo('dies');
    // A stand-in app process whose pid the channel names; it ends while the call waits.
    const app = spawn('sleep', ['60']);
    let reached = false;
    const server = serve(() => {
      reached = true;
      return new Promise<undefined>(() => undefined);
    });
    fs.writeFileSync(path.join(server.dir, 'pid'), appMark(app.pid));
    const run = runClient(['claude', 'PreToolUse'], write(root), { ...sb.env, REWIND_SOCKET: server.dir }, root);
    await waitFor(() => reached, 10_000, 'the call to reach the app');
    if (quits) server.close();
    app.kill('SIGKILL');
    await expect(run).resolves.toMatchObject({ code: 0, stdout: '' });
    expect(sb.open(root).list().map((record) => record.label)).toEqual(['Write a.txt']);
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not json {{{'],
    ['truncated', '{"tool_name":"Bash","tool_input":{"command":"rm -'],
    ['a JSON array', '[1,2,3]'],
  ])('an %s payload through the real `rewind hook`: a stderr line, exit 0, and the checkpoint taken all the same', async (_what, payload) => {
    const root = sb.repo('bad-payload');
    const run = await runClient(['claude', 'PreToolUse'], payload, sb.env, root);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(sb.open(root).list()).toHaveLength(1);
    if (payload === '' || !payload.startsWith('[')) expect(run.stderr).toMatch(/^rewind: the PreToolUse payload was not JSON: checkpointed all the same\n$/);
  });

  it('a huge payload (12 MB: a Write of a big file) is read whole: labelled, silent', async () => {
    const root = sb.repo('huge-payload');
    const payload = JSON.stringify({ session_id: 's-1', cwd: root, tool_name: 'Write', tool_input: { file_path: path.join(root, 'big.txt'), content: 'x'.repeat(12 * 1024 * 1024) } });
    expect(await runClient(['claude', 'PreToolUse'], payload, sb.env, root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(sb.open(root).list().map((record) => [record.label, record.agentSession])).toEqual([['Write big.txt', 's-1']]);
  });

  // A channel whose pid is another process now is test/hooks/hookInput.test.ts's.
  it('an app that no longer reads its channel: the hook waits for it, and checkpoints by itself once it is gone', async () => {
    const root = sb.repo('unread');
    const stale = path.join(sb.base, 'stale-app');
    fs.mkdirSync(stale, { mode: 0o700 });
    spawnSyncMkfifo(path.join(stale, 'in'));
    const other = spawn('sleep', ['60']);
    fs.writeFileSync(path.join(stale, 'pid'), appMark(other.pid));
    const run = runClient(['claude', 'PreToolUse'], write(root), { ...sb.env, REWIND_SOCKET: stale }, root);
    // Its request is written, then it waits for an answer; the watchdog gives it once that app is gone.
    await waitFor(() => fs.readdirSync(stale).some((name) => name.startsWith('ack.')), 10_000, 'the hook waiting for its answer');
    other.kill('SIGKILL');
    await expect(run).resolves.toMatchObject({ code: 0, stdout: '' });
    expect(sb.open(root).list().map((record) => record.label)).toEqual(['Write a.txt']);
  });

  // Tests run as root here and in CI: the folder is given to another user (nobody).
  it("a channel folder that is not the user's own is never written to: the hook checkpoints by itself", async () => {
    const root = sb.repo('not-mine');
    const seen: HookRequest[] = [];
    const server = serve(async (request) => {
      seen.push(request);
      return undefined;
    });
    fs.chownSync(server.dir, 65534, 65534);
    expect(await runClient(['claude', 'PreToolUse'], write(root), { ...sb.env, REWIND_SOCKET: server.dir }, root)).toMatchObject({ code: 0, stdout: '' });
    expect(seen).toEqual([]);
    expect(fs.readdirSync(server.dir).sort()).toEqual(['in', 'pid']);
    expect(sb.open(root).list().map((record) => record.label)).toEqual(['Write a.txt']);
  });

  it("once the hook has exited, nothing of it holds the agent's pipe (an agent reads a hook's output to its end)", async () => {
    const root = sb.repo('pipes');
    const server = serve(async () => undefined);
    for (let call = 0; call < 3; call++) {
      // The hook's stdout and stderr: a named pipe, so that /proc names it wherever it is held.
      const out = path.join(sb.base, `out-${call}`);
      spawnSyncMkfifo(out);
      const reader = fs.openSync(out, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const writer = fs.openSync(out, 'w');
      try {
        const child = spawn('sh', [client, 'claude', 'PreToolUse'], { cwd: root, env: { PATH: process.env.PATH, ...sb.env, REWIND_SOCKET: server.dir }, stdio: ['pipe', writer, writer] });
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        child.stdin?.end(write(root));
        expect(await exited).toBe(0);
        fs.closeSync(writer);
        expect(holdersOf(out), `call ${call}`).toEqual([]);
      } finally {
        fs.closeSync(reader);
      }
    }
  });

  it('a request whose client is gone is not served (no checkpoint after its step), and one that fails stops none after it', async () => {
    const root = sb.repo('stale-requests');
    const seen: string[] = [];
    const server = serve(async (request) => {
      seen.push(request.payload.toString());
      return undefined;
    });
    // Gone: its answer FIFO is not there. Failing: its payload is not a file (a folder).
    fs.writeFileSync(path.join(server.dir, 'req.424242'), 'stale');
    fs.mkdirSync(path.join(server.dir, 'req.777'));
    spawnSyncMkfifo(path.join(server.dir, 'ack.777'));
    const ack = fs.openSync(path.join(server.dir, 'ack.777'), fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    try {
      fs.writeFileSync(path.join(server.dir, 'in'), '424242 claude PreToolUse\n777 claude PreToolUse\n');
      expect(await runClient(['claude', 'PreToolUse'], '{"n":1}', { REWIND_SOCKET: server.dir }, root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(seen).toEqual(['{"n":1}']);
      const answer = Buffer.alloc(4096);
      expect(answer.subarray(0, fs.readSync(ack, answer)).toString()).toMatch(/^ok:req\.777 is not a file/);
    } finally {
      fs.closeSync(ack);
    }
  });

  // Every payload the real agents sent (test/fixtures/hooks/, recorded headless and in their TUIs).
  const fixtureRoot = path.join(repoRoot, 'test', 'fixtures', 'hooks');
  const fixtures = ['claude', 'codex', 'gemini'].flatMap((agent) =>
    (fs.readdirSync(path.join(fixtureRoot, agent), { recursive: true }) as string[]).filter((file) => file.endsWith('.json')).map((file) => [agent, file] as const),
  );
  const steps: Record<string, RegExp> = { claude: /^(PreToolUse|UserPromptSubmit)$/, codex: /^(PreToolUse|UserPromptSubmit)$/, gemini: /^(BeforeTool|BeforeAgent)$/ };
  /** The events that end a turn: a checkpoint marks it once there is a step before it. */
  const ends: Record<string, RegExp> = { claude: /^(Stop|StopFailure)$/, codex: /^Stop$/, gemini: /^AfterAgent$/ };

  it.each(['claude', 'codex', 'gemini'])("every recorded %s payload through the real `rewind hook`: exit 0, silent, a checkpoint exactly before each step", async (agent) => {
    const root = sb.repo(`fixtures-${agent}`);
    const mine = fixtures.filter(([owner]) => owner === agent);
    expect(mine.length).toBeGreaterThan(8);
    let taken = 0;
    for (const [, file] of mine) {
      const event = path.basename(file).split('.')[0] ?? '';
      const payload = fs.readFileSync(path.join(fixtureRoot, agent, file), 'utf8').replaceAll('<PROJECT>', root);
      // Each step's checkpoint must be new, though the files did not change: its label says what comes next.
      expect(await runClient([agent, event], payload, sb.env, root), file).toMatchObject({ code: 0, stdout: '', stderr: '' });
      if (steps[agent]?.test(event) || (ends[agent]?.test(event) && taken > 0)) taken++;
      expect(sb.open(root).initialized ? sb.open(root).list().length : 0, file).toBe(taken);
    }
    expect(taken).toBeGreaterThanOrEqual(4);
  });

  it("events that announce no step (and a turn's end with no step before it) take no checkpoint and say nothing", async () => {
    const root = sb.repo('no-step');
    for (const event of ['Stop', 'SessionStart', 'Notification']) {
      expect(await runClient(['claude', event], '{"session_id":"s"}', sb.env, root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(sb.open(root).initialized).toBe(false);
  });
});

/** The processes (other than this one) that hold the file `pipe` open. */
function holdersOf(pipe: string): string[] {
  const holders: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name) && name !== String(process.pid))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === pipe) holders.push(`${pid} ${fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`);
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return holders;
}

function spawnSyncMkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}
