// A step whose checkpoint failed in the app: the status line says so, and so does the hook on
// the agent's stderr (it used to answer plain `ok`); the step still goes on (exit 0).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeAgent } from '../../src/agents/claude/adapter.js';
import { HookChannel } from '../../src/hooks/hookChannel.js';
import { repoRoot, requireBuiltCli } from '../helpers/restoreKit.js';
import { sessionSandbox } from '../helpers/session.js';
import { write } from '../helpers/tempRepo.js';

const client = path.join(repoRoot, 'dist', 'hooks', 'rewind-hook.sh');

/** The real hook client, as Claude Code runs it before a Write. */
function hook(socket: string, cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [client, 'claude', 'PreToolUse'], { cwd, env: { PATH: process.env.PATH, REWIND_SOCKET: socket }, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(JSON.stringify({ session_id: 's-1', cwd, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(cwd, 'b.txt') } }));
  });
}

const sessions = sessionSandbox('rewind-hook-failed-');

describe('a hook whose checkpoint failed in the app', () => {
  let channel: HookChannel | undefined;
  beforeEach(() => {
    requireBuiltCli();
  });
  afterEach(() => {
    channel?.close();
  });

  it('tells the agent on its stderr, exit 0, and the app says it too', async () => {
    const sb = sessions.sandbox();
    const root = sb.repo('failing');
    const log = path.join(sb.base, 'rewind.log');
    channel = new HookChannel();
    const { session, openCheckpoints } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done'], undefined, { agent: claudeAgent, hooks: channel, env: { REWIND_LOG: log } });
    session.attachCheckpoints(await openCheckpoints());
    await session.checkpointsOpened();
    // The shadow repo's object store is no longer a folder: git cannot write the step's objects.
    const objects = path.join(session.checkpoints?.engine.storeRoot ?? '', 'repo.git', 'objects');
    fs.rmSync(objects, { recursive: true });
    fs.writeFileSync(objects, 'not a folder\n');
    write(root, 'a.txt', 'an edit before the step\n');

    const { code, stderr } = await hook(channel.env.REWIND_SOCKET ?? '', root);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^rewind: no checkpoint before this step \(checkpoint failed: .+\)\n$/);
    expect(session.recentNotices.map((notice) => notice.text)).toContainEqual(expect.stringMatching(/^checkpoint failed: /));
    // The run log: the failed snapshot, then the hook call that asked for it (a watcher's checkpoint of the edit may come around them).
    const lines = fs.readFileSync(log, 'utf8').trimEnd().split('\n');
    const step = lines.findIndex((line) => / snapshot trigger=PreToolUse:Write /.test(line));
    const call = lines.findIndex((line) => / hook agent=claude /.test(line));
    expect(lines[step]).toMatch(/ pid=\d+ snapshot trigger=PreToolUse:Write project=\S+ ms=\d+ result=failed error=/);
    expect(lines[call]).toMatch(/ pid=\d+ hook agent=claude event=PreToolUse app=true checkpoint=false failed="checkpoint failed: .+" ms=\d+$/);
    expect(call).toBeGreaterThan(step);
  }, 60_000);
});
