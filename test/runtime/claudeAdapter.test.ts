// The Claude Code adapter: how it adds Rewind's hooks to a launch (merged with the user's own
// --settings, no file edited) and what its hook payloads mean (the recorded real ones).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeHookEvent, claudeLaunch } from '../../src/agents/claude/adapter.js';
import { repoRoot } from '../helpers/restoreKit.js';

// The hook script is installed under REWIND_HOME at launch: a folder of the test's, never the real home.
const rewindEnv = { REWIND_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-claude-adapter-')) };
afterAll(() => fs.rmSync(rewindEnv.REWIND_HOME, { recursive: true, force: true }));

const project = '/work/project';

function fixture(name: string): unknown {
  const text = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'hooks', 'claude', name), 'utf8');
  return JSON.parse(text.replaceAll('<PROJECT>', project)) as unknown;
}

function settingsOf(args: readonly string[]): { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> } & Record<string, unknown> {
  const at = args.indexOf('--settings');
  expect(args.filter((arg) => arg === '--settings')).toHaveLength(1);
  return JSON.parse(args[at + 1] ?? '') as ReturnType<typeof settingsOf>;
}

describe('launching claude', () => {
  it('adds --settings with a hook for each event, file-changing tools matched, after the user arguments', () => {
    const { args } = claudeLaunch({ command: 'claude', args: ['--model', 'x', 'fix the bug'], env: rewindEnv });
    expect(args.slice(0, 3)).toEqual(['--model', 'x', 'fix the bug']);
    const { hooks } = settingsOf(args);
    expect(Object.keys(hooks).sort()).toEqual(['Notification', 'PreToolUse', 'SessionStart', 'Stop', 'StopFailure', 'UserPromptSubmit']);
    expect(hooks.PreToolUse?.[0]?.matcher).toBe('Write|Edit|MultiEdit|NotebookEdit|Bash');
    expect(hooks.PreToolUse?.[0]?.hooks[0]?.command).toMatch(/^sh .*rewind-hook\.sh claude PreToolUse$/);
    // The same on every run: per-run details travel in the environment.
    expect(claudeLaunch({ command: 'claude', args: [], env: rewindEnv }).args).toEqual(claudeLaunch({ command: 'claude', args: [], env: rewindEnv }).args);
  });

  it("merges the user's own --settings (a file, or JSON, one or more) where the first was, keeping their hooks and keys, and never edits the file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-claude-settings-'));
    try {
      const file = path.join(dir, 'mine.json');
      const theirs = `${JSON.stringify({ model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-linter' }] }] } }, null, 2)}\n`;
      fs.writeFileSync(file, theirs);
      const { args } = claudeLaunch({ command: 'claude', args: ['--allowedTools', 'Write', '--settings', file, '--settings={"theme":"light"}', 'the prompt', '--', '--not-an-option'], env: rewindEnv });
      expect(args[0]).toBe('--allowedTools');
      expect(args[1]).toBe('Write');
      expect(args[2]).toBe('--settings');
      expect(args.slice(4)).toEqual(['the prompt', '--', '--not-an-option']);
      const merged = settingsOf(args);
      expect(merged).toMatchObject({ model: 'opus', theme: 'light' });
      expect(merged.hooks.PreToolUse?.map((group) => group.hooks[0]?.command)).toEqual(['my-linter', expect.stringMatching(/rewind-hook\.sh claude PreToolUse$/)]);
      expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("claude's hook calls", () => {
  it('label each file-changing tool call by tool and target, from the real payloads', () => {
    expect(claudeHookEvent('PreToolUse', fixture('PreToolUse.Write.json'))).toMatchObject({ activity: 'busy', checkpoint: { trigger: 'PreToolUse:Write', label: 'Write notes.txt' }, agentSession: '530cd378-68ba-4a2a-a013-c740111b5430' });
    expect(claudeHookEvent('PreToolUse', fixture('PreToolUse.Edit.json'))).toMatchObject({ checkpoint: { trigger: 'PreToolUse:Edit', label: 'Edit notes.txt' } });
    expect(claudeHookEvent('PreToolUse', fixture('PreToolUse.Bash.json'))).toMatchObject({ checkpoint: { trigger: 'PreToolUse:Bash', label: 'Bash rm README.md && echo made > made.txt' } });
    expect(claudeHookEvent('UserPromptSubmit', fixture('UserPromptSubmit.json'))).toMatchObject({ activity: 'busy', checkpoint: { trigger: 'UserPromptSubmit', label: 'Write the notes, fix them, then tidy up' } });
  });

  it("label a subagent's calls the same, in the main session and its conversation (the payload adds agent_id, agent_type)", () => {
    for (const [tool, label] of [['Write', 'Write notes.txt'], ['Bash', 'Bash rm README.md && echo made > made.txt']] as const) {
      const recorded = fixture(`subagent/PreToolUse.${tool}.json`) as Record<string, string>;
      const payload: Record<string, string> = { ...recorded, transcript_path: String(recorded.transcript_path).replace('<CLAUDE_CONFIG_DIR>', '/home/u/.claude') };
      expect(payload.agent_type).toBe('general-purpose');
      expect(claudeHookEvent('PreToolUse', payload)).toEqual({
        agentSession: payload.session_id,
        cwd: project,
        activity: 'busy',
        checkpoint: { trigger: `PreToolUse:${tool}`, label },
        ...(tool === 'Write' ? { files: [(recorded.tool_input as unknown as { file_path: string }).file_path] } : {}),
        // The main transcript, cut before the prompt whose turn started the subagent.
        conversation: { transcript: payload.transcript_path, session: payload.session_id, promptId: payload.prompt_id },
      });
    }
  });

  it('say when it works and when it waits, mark the end of a turn with a checkpoint, and checkpoint nothing for the others', () => {
    expect(claudeHookEvent('Stop', fixture('Stop.json'))).toMatchObject({ activity: 'idle', checkpoint: { trigger: 'end', label: 'end of turn' } });
    expect(claudeHookEvent('StopFailure', {}).checkpoint).toEqual({ trigger: 'end', label: 'end of turn' });
    // The idle prompt's notification only says it still waits: no second end.
    expect(claudeHookEvent('Notification', { notification_type: 'idle_prompt' }).checkpoint).toBeUndefined();
    expect(claudeHookEvent('Notification', { notification_type: 'idle_prompt', message: 'Claude is waiting for your input' })).toMatchObject({ activity: 'idle' });
    expect(claudeHookEvent('Notification', fixture('tui/Notification.json')).activity).toBeUndefined();
    // A session that starts waits for its first prompt; a compaction may be mid-turn.
    expect(claudeHookEvent('SessionStart', fixture('SessionStart.json'))).toEqual({ agentSession: expect.any(String), cwd: project, activity: 'idle' });
    for (const source of ['resume', 'clear']) expect(claudeHookEvent('SessionStart', { source }).activity).toBe('idle');
    expect(claudeHookEvent('SessionStart', { source: 'compact' }).activity).toBeUndefined();
  });

  it('checkpoint before a step whose payload is garbage all the same, and say so', () => {
    expect(claudeHookEvent('PreToolUse', undefined)).toMatchObject({ checkpoint: { trigger: 'PreToolUse:tool', label: 'tool' }, problem: 'the PreToolUse payload was not JSON: checkpointed all the same' });
    expect(claudeHookEvent('PreToolUse', { tool_name: 7, tool_input: 'x' })).toMatchObject({ checkpoint: { label: 'tool' } });
    const long = claudeHookEvent('PreToolUse', { tool_name: 'Bash', tool_input: { command: `echo ${'x'.repeat(500)}\nsecond line` } });
    expect(long.checkpoint?.label.length).toBeLessThanOrEqual(85);
  });
});
