// A transcript larger than a string or the heap can hold (issue 23, item 6): capture copies
// it a block at a time and a restore rebuilds it a line at a time, so neither holds it whole.
// Proven on a moderate transcript (48 MiB) with the CLI's heap held far below it: reading it
// whole, as a string, runs out of heap (it did before: a 600 MB one could never be restored),
// while reading it a line at a time needs only a line. The multi-GB case is in no test (too
// slow for `npm test`); the mechanism is the same at any size.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtCli, requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sandbox: Sandbox;
beforeEach(() => {
  requireBuiltCli();
  sandbox = createSandbox('rewind-big-transcript-');
});
afterEach(async () => {
  await sandbox.cleanup();
});

const oldSession = '530cd378-68ba-4a2a-a013-c740111b5430';
/** Far less than the transcript: the CLI itself runs in it, a whole-transcript string does not fit. */
const heapMb = 32;
const turns = 6_000;

/** Turn `n`: the user's prompt, then the assistant's answer of about 8 KiB. */
function turn(n: number, session: string): string {
  const prompt = { type: 'user', uuid: `u${n}`, sessionId: session, promptId: `p${n}`, message: { role: 'user', content: `prompt ${n}` } };
  const answer = { type: 'assistant', uuid: `a${n}`, sessionId: session, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text: `answer ${n} ${'é✓x'.repeat(1600)}` }] } };
  return `${JSON.stringify(prompt)}\n${JSON.stringify(answer)}\n`;
}

describe('a transcript far larger than the heap', () => {
  it('is captured by the hook and restored as a new session, whole and exact', () => {
    const root = sandbox.repo('project');
    const claude = path.join(sandbox.base, 'claude');
    const transcript = path.join(claude, 'projects', '-project', `${oldSession}.jsonl`);
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    const fd = fs.openSync(transcript, 'w', 0o600);
    for (let n = 0; n < turns; n++) fs.writeSync(fd, turn(n, oldSession));
    fs.closeSync(fd);
    const size = fs.statSync(transcript).size;
    expect(size).toBeGreaterThan(heapMb * 1.5 * 2 ** 20);

    const env = { PATH: process.env.PATH, HOME: sandbox.home, REWIND_HOME: sandbox.store, REWIND_CONFIG_DIR: sandbox.configDir, CLAUDE_CONFIG_DIR: claude, NODE_OPTIONS: `--max-old-space-size=${heapMb}` };
    const run = (args: string[], input?: string) => spawnSync(process.execPath, [builtCli, ...args], { cwd: root, env, input, encoding: 'utf8', timeout: 120_000 });

    // The step of the last turn: its conversation is every turn before it.
    write(root, 'a.txt', 'one\n');
    const payload = JSON.stringify({ session_id: oldSession, transcript_path: transcript, cwd: root, prompt_id: `p${turns - 1}`, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'true' } });
    const hook = run(['hook', 'claude', 'PreToolUse'], payload);
    expect(hook.status, hook.stderr).toBe(0);
    expect(hook.stderr).toBe('');
    const record = sandbox.project(root).list().at(-1);
    expect(record?.conversation).toMatchObject({ agent: 'claude' });

    const restore = run(['restore', String(record?.id), '--conversation', '--json']);
    expect(restore.status, restore.stderr).toBe(0);
    const { conversation } = JSON.parse(restore.stdout) as { conversation: { file: string; session: string; messages: number } };
    expect(conversation.messages).toBe(2 * (turns - 1));
    // The new session's file: the turns before the last, each naming the new session (hashed, a block at a time).
    const want = createHash('sha256');
    for (let n = 0; n < turns - 1; n++) want.update(turn(n, conversation.session));
    const got = createHash('sha256');
    const out = fs.openSync(conversation.file, 'r');
    const block = Buffer.alloc(1 << 20);
    for (let read = fs.readSync(out, block); read > 0; read = fs.readSync(out, block)) got.update(block.subarray(0, read));
    fs.closeSync(out);
    expect(got.digest('hex')).toBe(want.digest('hex'));
  });
});
