// The note an agent gets after a files-only restore in the app: its text, and its delivery
// through the real hook client (dist/hooks/rewind-hook.sh) at the agent's next prompt, once;
// a later files-only restore replaces it, an undo drops it (or, once it was given, is told
// too); an agent with no prompt hook is not told, and the user is asked to tell it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../../src/agents/agentAdapter.js';
import { aiderAgent } from '../../src/agents/aider.js';
import { claudeAgent } from '../../src/agents/claude/adapter.js';
import { codexAgent } from '../../src/agents/codex/adapter.js';
import { geminiAgent } from '../../src/agents/gemini/adapter.js';
import { configDefaults } from '../../src/config/schema.js';
import { PtySession } from '../../src/pty/ptySession.js';
import { openForApp } from '../../src/runtime/checkpointing/checkpointer.js';
import { SessionController } from '../../src/runtime/session/controller.js';
import { HookChannel } from '../../src/hooks/hookChannel.js';
import { runAppCommand } from '../../src/runtime/session/appCommands.js';
import { chooseInPicker } from '../helpers/pickerChoice.js';
import { restoreNoteOf, revertNoteOf, undoNoteOf } from '../../src/hooks/restoreNote.js';
import { repoRoot, requireBuiltCli } from '../helpers/restoreKit.js';
import { sessionSandbox } from '../helpers/session.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const client = path.join(repoRoot, 'dist', 'hooks', 'rewind-hook.sh');

describe('the note', () => {
  it('names the checkpoint and its label, a few of the files put back and their count, and says the edits after it are gone', () => {
    const note = restoreNoteOf(3, 'Edit src/db.ts', { changed: ['a.txt', 'src/b.ts', 'c.md', 'd.txt'], deleted: ['new.txt'] });
    expect(note?.text).toBe(
      `Note from Rewind: the user restored the project's files to checkpoint #3 ("Edit src/db.ts"), keeping this conversation. 5 files put back: a.txt, src/b.ts, c.md and 2 more (1 removed: it did not exist then). Your edits after that are gone; re-read files before relying on them.`,
    );
    expect(note?.told).toBe('told the agent its files are back to #3 (5 files: a.txt, src/b.ts, c.md and 2 more): its edits after that are gone');
  });

  it('one file, no label, a long label cut, a line break kept out', () => {
    expect(restoreNoteOf(1, undefined, { changed: [], deleted: ['a.txt'] })?.text).toBe(
      `Note from Rewind: the user restored the project's files to checkpoint #1, keeping this conversation. 1 file put back: a.txt (removed: it did not exist then). Your edits after that are gone; re-read files before relying on them.`,
    );
    const long = restoreNoteOf(2, `fix it\nand ${'x'.repeat(200)}`, { changed: ['a.txt'], deleted: [] })?.text ?? '';
    expect(long).toMatch(/#2 \("fix it and x+…"\), keeping/);
    expect(long).not.toContain('\n');
    expect(long.length).toBeLessThan(400);
  });

  it('a revert: the one step taken back, the later ones kept; files left with conflict markers named; its undo said as a revert', () => {
    const note = revertNoteOf(5, 'Edit config.ts', { changed: ['config.ts', 'a.txt'], deleted: ['.env.example'] }, ['config.ts']);
    expect(note?.text).toBe(
      'Note from Rewind: the user took back one earlier step of yours, the one after checkpoint #5 ("Edit config.ts"), keeping this conversation and the later steps. 3 files changed: config.ts, a.txt, .env.example. What that step did to them is undone. config.ts now holds git conflict markers (your later lines and the lines from before that step) to resolve. Re-read files before relying on them.',
    );
    expect(note?.told).toBe('told the agent the step of #5 was taken back (3 files: config.ts, a.txt, .env.example)');
    // In the app the step is named as its row names it (rows show no ids).
    expect(revertNoteOf(5, 'Edit config.ts', { changed: ['a.txt'], deleted: [] }, [], '“Edit config.ts”')?.told).toBe('told the agent “Edit config.ts” was taken back (1 file: a.txt)');
    expect(undoNoteOf(5, { changed: ['a.txt'], deleted: [] }, true, '“Edit config.ts”')?.told).toBe('told the agent the revert of “Edit config.ts” was undone (1 file: a.txt): its edits are back');
    expect(revertNoteOf(5, undefined, { changed: [], deleted: [] })).toBeUndefined();
    expect(undoNoteOf(5, { changed: ['a.txt'], deleted: [] }, true)?.text).toMatch(/^Note from Rewind: the user undid the revert of the step of #5 you were told of/);
  });

  it('a restore of the files the user ticked says it was those alone: the agent keeps its edits to the others', () => {
    const note = restoreNoteOf(6, '2', { changed: ['package.json'], deleted: ['tests/server.test.js'] }, 'prompt “2”', true);
    expect(note?.text).toBe(
      'Note from Rewind: the user restored some of the project\'s files (those they ticked) to checkpoint #6 ("2"), keeping this conversation. 2 files put back: package.json, tests/server.test.js (1 removed: it did not exist then). Your edits to them after that are gone; the other files are as you left them; re-read files before relying on them.',
    );
    expect(note?.told).toBe('told the agent 2 of its files are back to just before prompt “2” (2 files: package.json, tests/server.test.js): its edits to them after that are gone');
  });

  it('an undo that also took back what changed since the restore says so: the agent must not count on those edits', () => {
    const note = undoNoteOf(3, { changed: ['a.txt', 'README.md'], deleted: ['docs/usage.md'], changedSince: ['README.md', 'docs/usage.md'] }, false, '“Bash rm -rf tests”');
    expect(note?.text).toBe(
      "Note from Rewind: the user undid the restore to checkpoint #3 you were told of: the project's files are back as they were before it, your edits from before it included. 3 files changed back: a.txt, README.md, docs/usage.md. What was changed since that restore in README.md, docs/usage.md is gone too. Re-read files before relying on them.",
    );
    expect(note?.told).toBe('told the agent the rewind to just before “Bash rm -rf tests” was undone (3 files: a.txt, README.md, docs/usage.md): its edits from before it are back, the changes since to README.md, docs/usage.md gone');
    expect(undoNoteOf(5, { changed: ['a.txt'], deleted: [], changedSince: ['a.txt'] }, true)?.text).toContain('What was changed since that revert in a.txt is gone too.');
    expect(restoreNoteOf(6, '2', { changed: ['a.txt'], deleted: [] }, 'prompt “2”', true)?.told).toBe('told the agent 1 of its files is back to just before prompt “2” (1 file: a.txt): its edits to them after that are gone');
  });

  it('a restore that put back no file makes no note', () => {
    expect(restoreNoteOf(4, 'Write a.txt', { changed: [], deleted: [] })).toBeUndefined();
  });

  it.each([
    ['claude', claudeAgent, 'UserPromptSubmit', ['PreToolUse', 'Stop', 'Notification', 'SessionStart']],
    ['gemini', geminiAgent, 'BeforeAgent', ['BeforeTool', 'AfterAgent']],
    ['codex', codexAgent, 'UserPromptSubmit', ['PreToolUse', 'Stop', 'Interrupt']],
  ] as const)("%s's prompt hook adds it as context (hookSpecificOutput.additionalContext), no other event does", (_name, agent, prompt, others) => {
    expect(JSON.parse(agent.promptNote?.(prompt, 'the "note"') ?? '')).toEqual({ hookSpecificOutput: { hookEventName: prompt, additionalContext: 'the "note"' } });
    for (const event of others) expect(agent.promptNote?.(event, 'the note')).toBeUndefined();
  });
});

/** The real hook client, as the agent runs it: its exit code and stdout. */
function hook(socket: string, cwd: string, event: string, payload: object): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [client, 'claude', event], { cwd, env: { PATH: process.env.PATH, REWIND_SOCKET: socket }, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(JSON.stringify({ session_id: 's-1', cwd, hook_event_name: event, ...payload }));
  });
}

/** The added context a prompt hook's stdout carries ('' for none). */
const contextOf = (stdout: string) => (stdout === '' ? '' : ((JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext ?? ''));

const choose = chooseInPicker;

describe('in the app: Claude Code told of a files-only restore at its next prompt, aider not', () => {
  let sb: Sandbox;
  let session: SessionController | undefined;
  let channel: HookChannel | undefined;
  beforeEach(() => {
    requireBuiltCli();
    sb = createSandbox('rewind-restore-note-');
  });
  afterEach(async () => {
    await session?.stop();
    channel?.close();
    session = undefined;
    channel = undefined;
    await sb.cleanup();
  });

  /** A session whose agent is Claude Code's adapter (a shell stands in for it in the pty), with its hook channel and first checkpoint. */
  async function start(root: string, agent: AgentAdapter = claudeAgent): Promise<{ current: SessionController; socket: string }> {
    const env = { ...sb.env, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const config = configDefaults();
    const pty = await PtySession.spawn({ command: 'sh', args: ['-c', 'while :; do sleep 1; done'], cwd: root, env: { PATH: env.PATH, HOME: sb.home }, cols: 80, rows: 24 });
    channel = new HookChannel();
    const current = new SessionController({ pty, sessionId: 'test-session', cwd: root, env, config, columns: 80, rows: 24, writeOuter: () => undefined, agent, hooks: channel });
    session = current;
    current.start();
    current.attachCheckpoints(await openForApp(root, config, env));
    await current.checkpointsOpened();
    return { current, socket: channel.env.REWIND_SOCKET ?? '' };
  }

  it('the next prompt gets the note once (a tool call before it does not take it); the user hears it was given', async () => {
    const root = sb.repo('once');
    const { current, socket } = await start(root);
    write(root, 'a.txt', 'the agent wrote this\n');
    const said = await choose(current, { kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    expect(said).toMatch(/^restored the files to just before “session start”: 1 file\(s\) changed \(0 written, 1 deleted\)/);
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(false);

    expect(await hook(socket, root, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })).toEqual({ code: 0, stdout: '' });
    const prompt = await hook(socket, root, 'UserPromptSubmit', { prompt: 'go on' });
    expect(prompt.code).toBe(0);
    expect(JSON.parse(prompt.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit' } });
    expect(contextOf(prompt.stdout)).toMatch(/^Note from Rewind: the user restored the project's files to checkpoint #1 \("session start"\), keeping this conversation\. 1 file put back: a\.txt \(removed: it did not exist then\)\. Your edits after that are gone/);
    const told = 'told claude its files are back to just before “session start” (1 file: a.txt): its edits after that are gone';
    await waitFor(() => current.view().status.notice?.text === told, 5_000, 'the notice that claude was told');
    // Given once: the prompt after it gets nothing.
    expect(await hook(socket, root, 'UserPromptSubmit', { prompt: 'and again' })).toEqual({ code: 0, stdout: '' });
  }, 60_000);

  it('a second files-only restore before the prompt replaces the note; an undo drops it', async () => {
    const root = sb.repo('twice');
    const { current, socket } = await start(root);
    write(root, 'a.txt', 'one\n');
    await current.checkpoint({ trigger: 'manual', label: 'with a' });
    write(root, 'b.txt', 'two\n');
    await choose(current, { kind: 'restore', id: 2, mode: 'files' }, /restored the files to just before “with a”/);
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
    await choose(current, { kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    const context = contextOf((await hook(socket, root, 'UserPromptSubmit', { prompt: 'next' })).stdout);
    expect(context).toContain('checkpoint #1 ("session start")');
    expect(context).toContain('1 file put back: a.txt');
    expect(context).not.toContain('#2');

    write(root, 'c.txt', 'three\n');
    await choose(current, { kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    await choose(current, { kind: 'undo' }, /undid the rewind to just before “session start”/);
    expect(fs.existsSync(path.join(root, 'c.txt'))).toBe(true);
    expect(await hook(socket, root, 'UserPromptSubmit', { prompt: 'after the undo' })).toEqual({ code: 0, stdout: '' });
  }, 60_000);

  it('an undo of a restore the agent was told of is told too, once; /redo drops a note not yet given', async () => {
    const root = sb.repo('undo-told');
    const { current, socket } = await start(root);
    write(root, 'a.txt', 'the agent wrote this\n');
    await choose(current, { kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    expect(contextOf((await hook(socket, root, 'UserPromptSubmit', { prompt: 'go on' })).stdout)).toContain('checkpoint #1');

    // The agent now believes a.txt is gone: the undo brings it back, and the agent hears so.
    await choose(current, { kind: 'undo' }, /undid the rewind to just before “session start”/);
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(true);
    const undone = contextOf((await hook(socket, root, 'UserPromptSubmit', { prompt: 'and now' })).stdout);
    expect(undone).toBe(
      "Note from Rewind: the user undid the restore to checkpoint #1 you were told of: the project's files are back as they were before it, your edits included. 1 file changed back: a.txt. Re-read files before relying on them.",
    );
    await waitFor(() => current.view().status.notice?.text === 'told claude the rewind to just before “session start” was undone (1 file: a.txt): its edits are back', 5_000, 'the notice that claude was told');
    expect(await hook(socket, root, 'UserPromptSubmit', { prompt: 'again' })).toEqual({ code: 0, stdout: '' });

    // A restore not yet told, undone with /redo: the agent never hears of either.
    await choose(current, { kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    await runAppCommand(current, 'redo', '');
    await waitFor(() => /undid the rewind to just before “session start”/.test(current.view().status.notice?.text ?? ''), 20_000, 'the /redo notice');
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(true);
    expect(await hook(socket, root, 'UserPromptSubmit', { prompt: 'after /redo' })).toEqual({ code: 0, stdout: '' });
  }, 60_000);

  it('an undo of a rewind the agent was not told of, which took back what changed since it, tells the agent those changes are gone', async () => {
    const root = sb.repo('untold');
    const { current, socket } = await start(root);
    write(root, 'a.txt', 'one\n');
    // A rewind made elsewhere (another Rewind, the command line): nothing tells the agent of it.
    await current.checkpoints?.engine.restore(1);
    write(root, 'b.txt', 'the agent went on\n');
    await choose(current, { kind: 'undo' }, /undid the rewind to just before “session start”/);
    expect(fs.existsSync(path.join(root, 'b.txt'))).toBe(false);
    expect(contextOf((await hook(socket, root, 'UserPromptSubmit', { prompt: 'go on' })).stdout)).toBe(
      "Note from Rewind: the user undid a rewind of the project's files: they are back as they were before it. What was changed since that rewind in b.txt is gone (your edits there included). Re-read files before relying on them.",
    );
    await waitFor(() => current.view().status.notice?.text === 'told claude the changes since the rewind to b.txt are gone', 5_000, 'the notice that claude was told');
  }, 60_000);

  it('aider (no prompt hook) is not told: the restore notice asks the user to tell it', async () => {
    const root = sb.repo('aider');
    const { current } = await start(root, aiderAgent);
    write(root, 'a.txt', 'aider wrote this\n');
    const said = await choose(current, { kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    expect(said).toMatch(/^restored the files to just before “session start” \(tell aider its edits after it are gone\): 1 file\(s\) changed \(0 written, 1 deleted\)/);
  }, 30_000);
});

describe('any other command', () => {
  const sessions = sessionSandbox('rewind-restore-note-generic-');
  it('is not told (no prompt hook): the restore notice asks the user to tell the agent', async () => {
    const root = sessions.sandbox().repo('generic');
    const { session, openCheckpoints } = await sessions.start(root, 'sh', ['-c', 'while :; do sleep 1; done']);
    session.attachCheckpoints(await openCheckpoints());
    await session.checkpointsOpened();
    write(root, 'a.txt', 'made after the first checkpoint\n');
    const said = await choose(session, { kind: 'restore', id: 1, mode: 'files' }, /restored the files to just before “session start”/);
    expect(said).toMatch(/^restored the files to just before “session start” \(tell the agent its edits after it are gone\): 1 file\(s\) changed \(0 written, 1 deleted\)/);
  }, 30_000);
});
