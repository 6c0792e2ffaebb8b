// The hook client's stdout: what the app gives it for the agent to read (a prompt hook's JSON)
// is printed there, whole, beside a stderr line; nothing else ever is, and it still exits 0.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookServer, type HookReply, type HookRequest } from '../../src/hooks/hookServer.js';
import { requireBuiltCli } from '../helpers/restoreKit.js';
import { hookClient, runHookClient } from '../helpers/hookClient.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

const client = hookClient;

let sb: Sandbox;
let servers: HookServer[] = [];
beforeEach(() => {
  requireBuiltCli();
  sb = createSandbox('rewind-hook-stdout-');
  servers = [];
});
afterEach(async () => {
  for (const server of servers) server.close();
  await sb.cleanup();
});

const runClient = runHookClient;

function serve(handle: (request: HookRequest) => Promise<HookReply>): HookServer {
  const server = HookServer.open(handle, sb.base);
  servers.push(server);
  return server;
}

describe("the hook client's stdout", () => {
  it('prints the line the app gives for stdout, exactly (quotes, backslashes, spaces, ünïcode), with its stderr line beside it', async () => {
    const root = sb.repo('out');
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'files of #3 put back: "a b.txt", c\\d.txt  ünïcode; re-read' } });
    const server = serve(async (request) => (request.event === 'UserPromptSubmit' ? { stdout: json, stderr: 'a problem' } : undefined));
    const prompt = await runClient(['claude', 'UserPromptSubmit'], '{"prompt":"go"}', { REWIND_SOCKET: server.dir }, root);
    expect(prompt).toEqual({ code: 0, stdout: `${json}\n`, stderr: 'rewind: a problem\n' });
    expect(JSON.parse(prompt.stdout)).toEqual(JSON.parse(json));
    // Any other answer: nothing on stdout, as before.
    expect(await runClient(['claude', 'PreToolUse'], '{}', { REWIND_SOCKET: server.dir }, root)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a stdout line alone (no stderr), and one given with line breaks, arrive as one line', async () => {
    const root = sb.repo('breaks');
    const server = serve(async () => ({ stdout: '{"a":\n1}' }));
    expect(await runClient(['gemini', 'BeforeAgent'], '{}', { REWIND_SOCKET: server.dir }, root)).toEqual({ code: 0, stdout: '{"a": 1}\n', stderr: '' });
  });

  it('a stdout line too long for one answer is left out, never cut (it is JSON): the hook still exits 0', async () => {
    const root = sb.repo('long');
    const server = serve(async () => ({ stdout: JSON.stringify({ note: 'x'.repeat(5000) }) }));
    expect(await runClient(['codex', 'UserPromptSubmit'], '{}', { REWIND_SOCKET: server.dir }, root)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('an agent that closed its end of stdout: the hook still exits 0', async () => {
    const root = sb.repo('closed');
    const server = serve(async () => ({ stdout: '{"a":1}' }));
    const ran = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('sh', [client, 'claude', 'UserPromptSubmit'], { cwd: root, env: { PATH: process.env.PATH, REWIND_SOCKET: server.dir }, stdio: ['pipe', 'pipe', 'ignore'] });
      child.stdout.destroy();
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
      child.stdin.end('{}');
    });
    expect(ran).toBe(0);
  });
});
