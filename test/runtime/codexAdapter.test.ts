// The Codex adapter on its own: what each hook call means, read from payloads the real Codex
// sent (test/fixtures/hooks/codex/, recorded by test/agents/codex.test.ts), and payloads it
// never should (garbage); and how it adds its hooks to a launch (per-run `-c` overrides,
// the same on every run, the user's own kept, the hook-trust bypass never added).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import type { Launch } from '../../src/agents/agentAdapter.js';
import { agentNamed, chooseAgent } from '../../src/agents/chooseAgent.js';
import { codexAgent, codexHookEvent } from '../../src/agents/codex/adapter.js';
import { codexHookEvents, codexLaunch, hookOverride, tomlString, trustNotice } from '../../src/agents/codex/launch.js';
import { patchFiles } from '../../src/agents/codex/patch.js';
import { installedHookScript } from '../../src/agents/hookCommand.js';
import { parsePayload } from '../../src/agents/payload.js';

const project = '/work/project';
const fixtures = path.resolve(import.meta.dirname, '../fixtures/hooks/codex');

/** A recorded payload (headless, or `tui/…`), its placeholders filled in. */
function fixture(name: string): unknown {
  const text = fs.readFileSync(path.join(fixtures, name), 'utf8').replaceAll('<PROJECT>', project).replaceAll('<CODEX_HOME>', '/work/home/.codex');
  return parsePayload(Buffer.from(text));
}

const session = (name: string) => (fixture(name) as { session_id: string }).session_id;
const patchCall = (patch: unknown, cwd = project) => codexHookEvent('PreToolUse', { session_id: 's', cwd, tool_name: 'apply_patch', tool_input: { command: patch } });
// The hook script is installed under REWIND_HOME at launch: a folder of the test's, never the real home.
const rewindEnv = { REWIND_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-codex-adapter-')) };
afterAll(() => fs.rmSync(rewindEnv.REWIND_HOME, { recursive: true, force: true }));
const script = installedHookScript(rewindEnv);
const launchOf = (args: string[], env: NodeJS.ProcessEnv = rewindEnv): Launch => codexLaunch({ command: 'codex', args, env });

describe('codex hook calls, as the real Codex sends them', () => {
  for (const set of ['', 'tui/']) {
    it(`labels an apply_patch by the files it touches, a shell command by its text (${set || 'headless'})`, () => {
      expect(codexHookEvent('PreToolUse', fixture(`${set}PreToolUse.apply_patch.json`))).toEqual({
        agentSession: session(`${set}PreToolUse.apply_patch.json`),
        cwd: project,
        activity: 'busy',
        checkpoint: { trigger: 'PreToolUse:apply_patch', label: 'apply_patch notes.txt' },
        // The file the patch writes, as the patch names it (the checkpoint after the step stages it too).
        files: [expect.stringMatching(/(^|\/)notes\.txt$/)],
        // Where its conversation stands: its rollout, its session, the turn the step is in.
        conversation: { transcript: expect.stringMatching(/\/sessions\/.*rollout-.*\.jsonl$/), session: session(`${set}PreToolUse.apply_patch.json`), promptId: expect.stringMatching(/^call:call_/) },
      });
      expect(codexHookEvent('PreToolUse', fixture(`${set}PreToolUse.Bash.json`))).toEqual({
        agentSession: session(`${set}PreToolUse.Bash.json`),
        cwd: project,
        activity: 'busy',
        checkpoint: { trigger: 'PreToolUse:Bash', label: 'Bash rm README.md && echo made > made.txt' },
        conversation: expect.objectContaining({ session: session(`${set}PreToolUse.Bash.json`) }),
      });
    });

    it(`makes the agent busy on a prompt, with a checkpoint labelled by it, and idle on Stop (${set || 'headless'})`, () => {
      expect(codexHookEvent('UserPromptSubmit', fixture(`${set}UserPromptSubmit.json`))).toMatchObject({
        activity: 'busy',
        checkpoint: { trigger: 'UserPromptSubmit', label: 'Write the notes, fix them, then tidy up' },
      });
      const stop = codexHookEvent('Stop', fixture(`${set}Stop.json`));
      expect(stop).toEqual({ agentSession: session(`${set}Stop.json`), cwd: project, activity: 'idle', checkpoint: { trigger: 'end', label: 'end of turn' } });
    });
  }

  it('makes the agent idle on an interrupt (Codex fires no Stop then), with no checkpoint: Codex gives that hook 3 s', () => {
    expect(codexHookEvent('Interrupt', fixture('tui/Interrupt.json'))).toEqual({ agentSession: session('tui/Interrupt.json'), cwd: project, activity: 'idle' });
  });

  it('takes no checkpoint and changes nothing for the events it does not act on', () => {
    for (const name of ['SessionStart.json', 'SessionEnd.json', 'PostToolUse.Bash.json', 'PostToolUse.apply_patch.json']) {
      const event = name.split('.')[0] ?? '';
      expect(codexHookEvent(event, fixture(name)), name).toEqual({ agentSession: session(name), cwd: project });
    }
  });
});

describe('apply_patch labels', () => {
  it('lists every file a patch adds, updates, moves or deletes, once each, in order', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export const a = 1;',
      '*** Update File: src/old.ts',
      '*** Move to: src/renamed.ts',
      '@@',
      '-a',
      '+b',
      '*** Update File: src/new.ts',
      '@@',
      ' context',
      '*** Delete File: docs/gone.md',
      '*** End Patch',
    ].join('\n');
    expect(patchFiles(patch)).toEqual(['src/new.ts', 'src/old.ts', 'src/renamed.ts', 'docs/gone.md']);
    expect(patchCall(patch).checkpoint?.label).toBe('apply_patch src/new.ts, src/old.ts, src/renamed.ts, docs/gone.md');
  });

  it('never takes file content for a file line: added, removed and context lines start with +, - or a space', () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+*** Delete File: b.txt\n*** Update File: c.txt\n@@\n-*** Add File: d.txt\n *** Move to: e.txt\n*** End Patch\n';
    expect(patchFiles(patch)).toEqual(['a.txt', 'c.txt']);
  });

  it('reads CRLF patches, paths with spaces, and shows absolute paths inside the project relative to it', () => {
    const patch = `*** Begin Patch\r\n*** Update File: ${project}/src/my file.ts\r\n@@\r\n-a\r\n+b\r\n*** Add File: /elsewhere/x.ts\r\n+x\r\n*** End Patch\r\n`;
    expect(patchCall(patch).checkpoint?.label).toBe('apply_patch src/my file.ts, /elsewhere/x.ts');
  });

  it('cuts a long list of files to one short line', () => {
    const patch = ['*** Begin Patch', ...Array.from({ length: 30 }, (_, index) => `*** Delete File: src/module-${index}.ts`), '*** End Patch'].join('\n');
    const label = patchCall(patch).checkpoint?.label ?? '';
    expect(label.startsWith('apply_patch src/module-0.ts, src/module-1.ts')).toBe(true);
    expect(label.endsWith('…')).toBe(true);
    expect(label.length).toBeLessThanOrEqual('apply_patch '.length + 80);
  });

  it('is just `apply_patch` when the patch names no file, or is not text', () => {
    expect(patchCall('*** Begin Patch\n*** End Patch\n').checkpoint?.label).toBe('apply_patch');
    expect(patchCall(42).checkpoint?.label).toBe('apply_patch');
    expect(codexHookEvent('PreToolUse', { tool_name: 'apply_patch' }).checkpoint?.label).toBe('apply_patch');
  });
});

describe('codex hook calls that are garbage', () => {
  it('still checkpoints a tool call whose payload was no JSON, and says so on the hook stderr', () => {
    expect(codexHookEvent('PreToolUse', parsePayload(Buffer.from('{"tool_name": "Bash", "tool_in')))).toEqual({
      agentSession: undefined,
      cwd: undefined,
      activity: 'busy',
      checkpoint: { trigger: 'PreToolUse:tool', label: 'tool' },
      problem: 'the PreToolUse payload was not JSON: checkpointed all the same',
    });
    expect(codexHookEvent('UserPromptSubmit', undefined)).toMatchObject({ checkpoint: { trigger: 'UserPromptSubmit', label: '(prompt)' }, problem: expect.stringContaining('not JSON') });
  });

  it('takes fields of the wrong type as missing', () => {
    expect(codexHookEvent('PreToolUse', { session_id: 7, cwd: ['x'], tool_name: 'Bash', tool_input: { command: ['bash', '-lc', 'ls'] } })).toEqual({
      agentSession: undefined,
      cwd: undefined,
      activity: 'busy',
      checkpoint: { trigger: 'PreToolUse:Bash', label: 'Bash' },
    });
    expect(codexHookEvent('PreToolUse', [1, 2]).checkpoint).toEqual({ trigger: 'PreToolUse:tool', label: 'tool' });
    expect(codexHookEvent('Stop', null)).toEqual({ agentSession: undefined, cwd: undefined, activity: 'idle', checkpoint: { trigger: 'end', label: 'end of turn' } });
  });

  it('never throws, whatever the payload, and every label is one line', () => {
    fc.assert(
      fc.property(fc.constantFrom(...codexHookEvents, 'SessionStart', 'Nonsense'), fc.oneof(fc.anything(), fc.record({ tool_name: fc.constantFrom('apply_patch', 'Bash'), tool_input: fc.record({ command: fc.string() }) })), (event, payload) => {
        const outcome = codexHookEvent(event, payload);
        expect(outcome.checkpoint?.label ?? '').not.toMatch(/[\r\n]/);
      }),
    );
  });
});

describe('codex launch', () => {
  it('adds one `-c hooks.<Event>=[…]` override per event in front of the user arguments (`-c` is an option of every subcommand)', () => {
    const { args } = launchOf(['exec', '--json', 'fix the tests']);
    expect(args).toEqual([...codexHookEvents.flatMap((event) => ['-c', hookOverride(event, script)]), 'exec', '--json', 'fix the tests']);
    expect(codexHookEvents).toEqual(['PreToolUse', 'UserPromptSubmit', 'Stop', 'Interrupt']);
    expect(hookOverride('PreToolUse')).toMatch(/^hooks\.PreToolUse=\[\{ matcher = "apply_patch\|Bash", hooks = \[\{ type = "command", command = "sh \S+\/hooks\/rewind-hook\.sh codex PreToolUse", timeout = 120 \}\] \}\]$/);
    // Codex clamps an Interrupt hook's timeout to 3 s, with a warning on every run.
    expect(hookOverride('Interrupt')).toMatch(/^hooks\.Interrupt=\[\{ hooks = \[\{ type = "command", command = "sh \S+ codex Interrupt", timeout = 3 \}\] \}\]$/);
  });

  it('adds the same hook definitions on every run (Codex trusts a hook by a hash of its definition): per-run details go in the environment', () => {
    const first = codexAgent.launch({ command: 'codex', args: [], env: { ...rewindEnv, REWIND_SOCKET: '/tmp/rewind-hooks-a', REWIND_SESSION: 'session-alpha' } }, { id: 'session-alpha', cwd: '/projects/alpha' });
    const second = codexAgent.launch({ command: 'codex', args: [], env: { ...rewindEnv, REWIND_SOCKET: '/tmp/rewind-hooks-b', REWIND_SESSION: 'session-beta' } }, { id: 'session-beta', cwd: '/projects/beta' });
    expect(second.args).toEqual(first.args);
    expect(first.args.join(' ')).not.toMatch(/rewind-hooks-|session-alpha|\/projects\//);
    expect(second.env.REWIND_SOCKET).toBe('/tmp/rewind-hooks-b');
  });

  it('never passes --dangerously-bypass-hook-trust, and tells the user how to trust the hooks', () => {
    const launch = launchOf(['--model', 'gpt-5.5']);
    expect(launch.args).not.toContain('--dangerously-bypass-hook-trust');
    expect(launch.notice).toBe(trustNotice);
    expect(trustNotice).toMatch(/Trust all/);
    expect(trustNotice).toMatch(/--dangerously-bypass-hook-trust/);
  });

  it('keeps a bypass the user passed themselves, and then has nothing to tell them', () => {
    const launch = launchOf(['--dangerously-bypass-hook-trust', 'hello']);
    expect(launch.args.filter((arg) => arg === '--dangerously-bypass-hook-trust')).toHaveLength(1);
    expect(launch.notice).toBeUndefined();
    // After `--` it is the prompt's text, not a flag.
    expect(launchOf(['--', '--dangerously-bypass-hook-trust']).notice).toBe(trustNotice);
  });

  it("adds Rewind's hook group to the user's own `-c hooks.<Event>=[…]` in its place, theirs kept whole, in each form of the option", () => {
    const theirs = '[{ hooks = [{ type = "command", command = "lint.sh" }] }]';
    const ours = hookOverride('Stop', script).slice('hooks.Stop=['.length, -1);
    const merged = `hooks.Stop=[{ hooks = [{ type = "command", command = "lint.sh" }] },\n${ours}]`;
    const rest = codexHookEvents.filter((event) => event !== 'Stop').flatMap((event) => ['-c', hookOverride(event, script)]);
    expect(launchOf(['-c', `hooks.Stop=${theirs}`, 'hi']).args).toEqual([...rest, '-c', merged, 'hi']);
    expect(launchOf(['--config', `hooks.Stop=${theirs}`]).args).toEqual([...rest, '--config', merged]);
    expect(launchOf([`--config=hooks.Stop=${theirs}`]).args).toEqual([...rest, `--config=${merged}`]);
    expect(launchOf([`-chooks.Stop=${theirs}`]).args).toEqual([...rest, `-c${merged}`]);
    expect(launchOf(['-c', 'hooks.Stop = []']).args).toEqual([...rest, '-c', `hooks.Stop=[\n${ours}]`]);
    expect(launchOf(['-c', 'hooks.Stop=[{ hooks = [] },]']).args).toEqual([...rest, '-c', `hooks.Stop=[{ hooks = [] },\n${ours}]`]);
  });

  it("leaves alone what it cannot merge, other overrides, and everything after `--`", () => {
    const ours = codexHookEvents.flatMap((event) => ['-c', hookOverride(event, script)]);
    expect(launchOf(['-c', 'hooks.Stop="not an array"', '-c', 'model="o3"']).args).toEqual([...ours, '-c', 'hooks.Stop="not an array"', '-c', 'model="o3"']);
    expect(launchOf(['--', '-c', 'hooks.Stop=[]']).args).toEqual([...ours, '--', '-c', 'hooks.Stop=[]']);
    expect(launchOf(['exec', '-c']).args).toEqual([...ours, 'exec', '-c']);
  });

  it('writes TOML strings that read back exactly (every control character escaped)', () => {
    expect(tomlString('sh \'/opt/my "rewind"\\x\'\n\u007f')).toBe('"sh \'/opt/my \\"rewind\\"\\\\x\'\\u000a\\u007f"');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const toml = tomlString(text);
        // TOML's basic-string escapes used here are JSON's too: JSON reads it back.
        expect(JSON.parse(toml)).toBe(text);
        expect([...toml].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)).toBe(false);
      }),
    );
  });

  it('is the adapter for `codex`, and the one its hooks name', () => {
    expect(chooseAgent('codex')).toBe(codexAgent);
    expect(chooseAgent('/usr/local/bin/codex')).toBe(codexAgent);
    expect(agentNamed('codex')).toBe(codexAgent);
    expect(codexAgent.activity).toBe('hooks');
  });
});
