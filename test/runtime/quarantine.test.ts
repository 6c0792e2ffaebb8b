// Layer 2 is quarantined: an agent adapter that throws on every call (its hook events, its
// restore modes, its conversation's rebuild and resume, its launch) leaves layer 1 whole.
// The app's session with such an adapter, its hook calls made as the channel makes them:
// checkpoints are still taken before each step, files restore and redo, the problem is said
// once, the picker's conversation modes say why they are off, and a conversation restore
// chosen anyway changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../../src/agents/agentAdapter.js';
import type { PickerChoice } from '../../src/app/picker/types.js';
import { configDefaults } from '../../src/config/schema.js';
import type { HookRequest } from '../../src/hooks/hookServer.js';
import { PtySession } from '../../src/pty/ptySession.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { SessionController } from '../../src/runtime/session/controller.js';
import { conversationStoreOf } from '../../src/conversation/conversationRestore.js';
import type { HookChannel } from '../../src/hooks/hookChannel.js';
import { openPicker } from '../../src/runtime/restore/pickerFlow.js';
import { waitFor } from '../helpers/waitFor.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

const fail = (what: string) => () => {
  throw new Error(`${what} is broken`);
};

/** Every call throws: a private format changed under the adapter. */
const broken: AgentAdapter = {
  name: 'broken',
  handles: () => true,
  launch: fail('launch'),
  activity: 'hooks',
  restoreModes: fail('restoreModes'),
  hookEvent: fail('hookEvent'),
  conversation: { rebuild: fail('rebuild'), resumeArgs: fail('resumeArgs') },
};

let sandbox: Sandbox;
let session: SessionController | undefined;
beforeEach(() => {
  sandbox = createSandbox('rewind-quarantine-');
});
afterEach(async () => {
  await session?.stop();
  session = undefined;
  await sandbox.cleanup();
});

describe('an adapter that throws on every call', () => {
  it('leaves checkpoints from hook calls, file restores and redo working, with one notice', async () => {
    const root = sandbox.repo('project');
    const env = { ...sandbox.env, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const config = configDefaults();
    const pty = await PtySession.spawn({ command: 'sh', args: ['-c', 'while :; do sleep 1; done'], cwd: root, env: { PATH: env.PATH, HOME: sandbox.home }, cols: 80, rows: 24 });
    let hook: ((request: HookRequest) => Promise<string | undefined>) | undefined;
    const channel = { attach: (handler: typeof hook) => (hook = handler) } as unknown as HookChannel;
    const current = new SessionController({ pty, sessionId: 'quarantine', cwd: root, env, config, columns: 80, rows: 24, writeOuter: () => undefined, agent: broken, hooks: channel, command: 'sh', args: ['-c', 'while :; do sleep 1; done'] });
    session = current;
    current.start();
    current.attachCheckpoints(await openForApp(root, config, env));
    await current.checkpointsOpened();
    const engine = () => {
      if (!current.checkpoints) throw new Error('no checkpoints');
      return current.checkpoints.engine;
    };
    const transcript = path.join(sandbox.base, 'agent', 'session.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.writeFileSync(transcript, '{"type":"user","sessionId":"s","message":{"role":"user","content":"hi"}}\n');
    const payload = (tool: string) => Buffer.from(JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: root, prompt_id: 'p', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { file_path: path.join(root, 'a.txt') } }));
    const call = async (tool: string) => {
      if (!hook) throw new Error('the session attached no hook handler');
      return hook({ agent: 'broken', event: 'PreToolUse', payload: payload(tool) });
    };

    // A hook call: the adapter fails, the step is checkpointed as for any agent (if files changed).
    write(root, 'a.txt', 'one\n');
    expect(await call('Write')).toBeUndefined();
    const first = engine().list().at(-1);
    expect(first).toMatchObject({ trigger: 'hook:PreToolUse', label: 'PreToolUse', agent: 'broken', conversation: null });
    expect(await call('Write')).toBeUndefined();
    expect(engine().list().at(-1)?.id).toBe(first?.id);
    write(root, 'b.txt', 'two\n');
    await call('Edit');
    expect(engine().list().at(-1)).toMatchObject({ trigger: 'hook:PreToolUse', id: (first?.id ?? 0) + 1 });
    // The launch falls back to the command as given.
    const launch = { command: 'agent', args: ['--x'], env: {} };
    expect(current.agent.launch(launch, { id: 'quarantine', cwd: root })).toBe(launch);

    // A checkpoint that kept a conversation (as a working adapter would have), then a change after it.
    const ref = conversationStoreOf(engine()).capture('broken', { transcript, session: 's' });
    const kept = (await engine().snapshot({ label: 'with its conversation', trigger: 'manual', agent: 'broken', conversation: ref })).record.id;
    write(root, 'c.txt', 'three\n');

    const pick = async (choice: PickerChoice, notice: RegExp) => {
      void openPicker(current);
      await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
      const picker = current.view().picker;
      picker?.onChoose(choice);
      await waitFor(() => notice.test(current.view().status.notice?.text ?? ''), 20_000, `the notice ${String(notice)}`);
      return picker;
    };

    // The picker's conversation modes are off, and say why.
    void openPicker(current);
    await waitFor(() => current.view().picker !== undefined, 5_000, 'the picker');
    const off = { enabled: false, reason: 'the broken agent support failed (restoreModes is broken): files only' };
    expect(current.view().picker?.modes(kept)).toEqual({ both: off, files: { enabled: true }, conversation: off });
    current.view().picker?.onClose();

    // A conversation restore chosen anyway: one error, nothing changed (files, transcripts).
    const listing = engine().list().length;
    await pick({ kind: 'restore', id: kept, mode: 'both' }, /rebuilding the conversation for broken failed \(rebuild is broken\): nothing was changed/);
    expect(current.view().status.notice?.tone).toBe('error');
    expect(fs.readFileSync(path.join(root, 'c.txt'), 'utf8')).toBe('three\n');
    expect(fs.readdirSync(path.dirname(transcript))).toEqual(['session.jsonl']);
    expect(engine().list()).toHaveLength(listing);

    // Files restore, and redo.
    await pick({ kind: 'restore', id: first?.id ?? 0, mode: 'files' }, /restored the files to just before “PreToolUse”/);
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'c.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    await pick({ kind: 'undo' }, /undid the rewind to just before “PreToolUse”/);
    expect(fs.readFileSync(path.join(root, 'c.txt'), 'utf8')).toBe('three\n');
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('two\n');

    // One notice for all of it.
    expect(current.problems.filter((problem) => problem.includes('broken'))).toEqual([expect.stringMatching(/^the broken agent support failed \(a hook call: hookEvent is broken\): going on as for any command$/)]);
  }, 60_000);
});
