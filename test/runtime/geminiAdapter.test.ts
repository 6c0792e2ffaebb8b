// The Gemini CLI adapter: how it adds Rewind's hooks to a launch without writing any file of
// the user's (a GEMINI_CLI_HOME of Rewind's: their settings plus the hooks, every other entry
// linked to theirs), and what its hook payloads mean (the recorded real ones).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { geminiHookEvent, geminiLaunch, withGeminiHooks } from '../../src/agents/gemini/adapter.js';
import { stripJsonComments } from '../../src/agents/gemini/home.js';
import { repoRoot } from '../helpers/restoreKit.js';
import { fingerprint } from '../helpers/fingerprint.js';

const project = '/work/project';

function fixture(name: string): unknown {
  const text = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'hooks', 'gemini', name), 'utf8');
  return JSON.parse(text.replaceAll('<PROJECT>', project)) as unknown;
}

type Groups = Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;

describe('launching gemini', () => {
  let base: string;
  let env: NodeJS.ProcessEnv;
  let userDir: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-gemini-launch-')));
    env = { HOME: path.join(base, 'home'), REWIND_HOME: path.join(base, 'store'), PATH: process.env.PATH };
    userDir = path.join(base, 'home', '.gemini');
    fs.mkdirSync(path.join(userDir, 'tmp', 'project', 'chats'), { recursive: true });
    fs.writeFileSync(path.join(userDir, 'oauth_creds.json'), '{"token":"theirs"}\n');
    fs.writeFileSync(path.join(userDir, 'GEMINI.md'), '# my memory\n');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const settingsIn = (home: string) => JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8')) as { hooks: Groups } & Record<string, unknown>;

  it("runs the same command with a GEMINI_CLI_HOME of Rewind's: the user's settings (comments and all) plus a hook per event, theirs first", () => {
    const theirs = `{
  // my settings
  "model": { "name": "gemini-2.5-pro" }, /* a comment */
  "url": "https://example.com/not//a-comment",
  "hooks": { "BeforeTool": [{ "matcher": "run_shell_command", "hooks": [{ "type": "command", "command": "my-linter" }] }] }
}
`;
    fs.writeFileSync(path.join(userDir, 'settings.json'), theirs);
    fs.mkdirSync(path.join(userDir, 'history'));
    const before = fingerprint(userDir);
    const launch = geminiLaunch({ command: 'gemini', args: ['--yolo', '-i', 'fix it'], env });
    expect(launch.command).toBe('gemini');
    expect(launch.args).toEqual(['--yolo', '-i', 'fix it']);
    const home = launch.env.GEMINI_CLI_HOME ?? '';
    expect(home.startsWith(path.join(base, 'store') + path.sep)).toBe(true);
    expect(launch.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH).toBe(path.join(userDir, 'trustedFolders.json'));
    const settings = settingsIn(home);
    expect(settings).toMatchObject({ model: { name: 'gemini-2.5-pro' }, url: 'https://example.com/not//a-comment' });
    expect(Object.keys(settings.hooks).sort()).toEqual(['AfterAgent', 'BeforeAgent', 'BeforeTool', 'SessionStart']);
    expect(settings.hooks.BeforeTool?.map((group) => group.hooks[0]?.command)).toEqual(['my-linter', expect.stringMatching(/^sh .*rewind-hook\.sh gemini BeforeTool$/)]);
    expect(settings.hooks.BeforeTool?.[1]?.matcher).toBe('write_file|replace|run_shell_command');
    // Gemini counts hook timeouts in ms.
    expect(settings.hooks.BeforeTool?.[1]?.hooks[0]?.timeout).toBe(120_000);
    // The user's folder is exactly as it was; Rewind's is private.
    expect(fingerprint(userDir)).toEqual(before);
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(home, '.gemini', 'settings.json')).mode & 0o777).toBe(0o600);
  });

  it("links every other entry of the user's folder, so Gemini reads and writes their chats, credentials and memory where it always does", () => {
    const home = geminiLaunch({ command: 'gemini', args: [], env }).env.GEMINI_CLI_HOME ?? '';
    const ours = path.join(home, '.gemini');
    expect(fs.readdirSync(ours).sort()).toEqual(['GEMINI.md', 'history', 'oauth_creds.json', 'settings.json', 'tmp']);
    // history/ was missing: made where a bare run makes it, empty.
    expect(fs.readdirSync(path.join(userDir, 'history'))).toEqual([]);
    expect(fs.readlinkSync(path.join(ours, 'tmp'))).toBe(path.join(userDir, 'tmp'));
    fs.writeFileSync(path.join(ours, 'tmp', 'project', 'chats', 'session-1.jsonl'), '{}\n');
    expect(fs.existsSync(path.join(userDir, 'tmp', 'project', 'chats', 'session-1.jsonl'))).toBe(true);
    // No settings of the user's: only Rewind's hooks.
    expect(Object.keys(settingsIn(home))).toEqual(['hooks']);
  });

  it("makes a user's Gemini folder that does not exist yet (as a bare run would) with its chat folders, and links ~/.agents", () => {
    fs.rmSync(userDir, { recursive: true });
    fs.mkdirSync(path.join(base, 'home', '.agents', 'skills'), { recursive: true });
    const home = geminiLaunch({ command: 'gemini', args: [], env }).env.GEMINI_CLI_HOME ?? '';
    expect(fs.readdirSync(userDir).sort()).toEqual(['history', 'tmp']);
    expect(fs.readlinkSync(path.join(home, '.agents'))).toBe(path.join(base, 'home', '.agents'));
  });

  it('keeps a file Gemini replaced in its folder until the user\u2019s own copy is newer, and drops links to what the user removed', () => {
    const home = geminiLaunch({ command: 'gemini', args: [], env }).env.GEMINI_CLI_HOME ?? '';
    const ours = path.join(home, '.gemini', 'oauth_creds.json');
    // Gemini writes by rename: the link becomes a file of its own.
    fs.rmSync(ours);
    fs.writeFileSync(ours, '{"token":"refreshed in rewind"}\n');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(ours, later, later);
    geminiLaunch({ command: 'gemini', args: [], env });
    expect(fs.readFileSync(ours, 'utf8')).toContain('refreshed in rewind');
    const newer = new Date(Date.now() + 120_000);
    fs.utimesSync(path.join(userDir, 'oauth_creds.json'), newer, newer);
    fs.rmSync(path.join(userDir, 'GEMINI.md'));
    geminiLaunch({ command: 'gemini', args: [], env });
    expect(fs.readlinkSync(ours)).toBe(path.join(userDir, 'oauth_creds.json'));
    expect(fs.existsSync(path.join(home, '.gemini', 'GEMINI.md'))).toBe(false);
  });

  it("honours the user's own GEMINI_CLI_HOME and trusted-folders file, and gives the same hooks on every run", () => {
    const theirHome = path.join(base, 'elsewhere');
    fs.mkdirSync(path.join(theirHome, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(theirHome, '.gemini', 'settings.json'), '{"ui":{"theme":"ANSI"}}');
    const first = geminiLaunch({ command: 'gemini', args: [], env: { ...env, GEMINI_CLI_HOME: theirHome, GEMINI_CLI_TRUSTED_FOLDERS_PATH: '/etc/trusted.json' } });
    expect(first.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH).toBe('/etc/trusted.json');
    expect(settingsIn(first.env.GEMINI_CLI_HOME ?? '')).toMatchObject({ ui: { theme: 'ANSI' } });
    const again = geminiLaunch({ command: 'gemini', args: [], env: { ...env, GEMINI_CLI_HOME: theirHome } });
    expect(again.env.GEMINI_CLI_HOME).toBe(first.env.GEMINI_CLI_HOME);
    expect(settingsIn(again.env.GEMINI_CLI_HOME ?? '')).toEqual(settingsIn(first.env.GEMINI_CLI_HOME ?? ''));
    // Started with Rewind's own home already (a Rewind inside another): as it is, hooks not doubled.
    const nested = { ...env, GEMINI_CLI_HOME: first.env.GEMINI_CLI_HOME };
    expect(geminiLaunch({ command: 'gemini', args: [], env: nested })).toEqual({ command: 'gemini', args: [], env: nested });
  });

  it('runs Gemini as it is, saying why in the first notice, when its settings are not a JSON object (Gemini would not read them either)', () => {
    fs.writeFileSync(path.join(userDir, 'settings.json'), '{ "model": ');
    const broken = geminiLaunch({ command: 'gemini', args: ['-i', 'x'], env });
    expect(broken).toEqual({ command: 'gemini', args: ['-i', 'x'], env, notice: expect.stringContaining(`${path.join(userDir, 'settings.json')} is not valid JSON`) });
    expect(broken.notice).toMatch(/^Gemini runs without rewind's hooks .*: checkpoints come from Enter and file changes$/);
    fs.writeFileSync(path.join(userDir, 'settings.json'), '[1]');
    expect(geminiLaunch({ command: 'gemini', args: [], env }).notice).toMatch(/is not a JSON object/);
  });
});

describe('settings with comments', () => {
  it('lose their comments and nothing else', () => {
    expect(JSON.parse(stripJsonComments('{"a":"//x", /* c */ "b":"/*y*/", "c":"q\\"//"} // end'))).toEqual({ a: '//x', b: '/*y*/', c: 'q"//' });
  });

  it("keep the user's hooks for other events, and a value that is not a list is replaced", () => {
    const merged = withGeminiHooks({ hooks: { AfterTool: [{ hooks: [] }], BeforeAgent: 'nonsense' } });
    expect(merged.hooks?.AfterTool).toEqual([{ hooks: [] }]);
    expect((merged.hooks?.BeforeAgent as unknown[]).length).toBe(1);
  });
});

describe("gemini's hook calls", () => {
  it('label each file-changing tool call by tool and target, from the real payloads', () => {
    expect(geminiHookEvent('BeforeTool', fixture('BeforeTool.write_file.json'))).toMatchObject({ activity: 'busy', checkpoint: { trigger: 'BeforeTool:write_file', label: 'write_file notes.txt' }, agentSession: 'c7973b12-5725-43d4-9a58-b1a2432c87f7', cwd: project });
    expect(geminiHookEvent('BeforeTool', fixture('BeforeTool.replace.json'))).toMatchObject({ checkpoint: { trigger: 'BeforeTool:replace', label: 'replace notes.txt' } });
    expect(geminiHookEvent('BeforeTool', fixture('BeforeTool.run_shell_command.json'))).toMatchObject({ checkpoint: { trigger: 'BeforeTool:run_shell_command', label: 'run_shell_command rm README.md && echo made > made.txt' } });
    expect(geminiHookEvent('BeforeAgent', fixture('BeforeAgent.json'))).toMatchObject({ activity: 'busy', checkpoint: { trigger: 'BeforeAgent', label: 'Write the notes, fix them, then tidy up' } });
  });

  it('say when a turn ends (with a checkpoint marking it) and when Gemini is started or resumed (at its prompt), and checkpoint nothing for the others', () => {
    expect(geminiHookEvent('AfterAgent', fixture('AfterAgent.json'))).toMatchObject({ activity: 'idle', checkpoint: { trigger: 'end', label: 'end of turn' } });
    expect(geminiHookEvent('SessionStart', fixture('SessionStart.json')).checkpoint).toBeUndefined();
    expect(geminiHookEvent('SessionStart', fixture('SessionStart.json'))).toEqual({ agentSession: expect.any(String), cwd: project, activity: 'idle' });
    expect(geminiHookEvent('SessionStart', fixture('tui/SessionStart.json'))).toEqual({ agentSession: expect.any(String), cwd: project, activity: 'idle' });
    expect(geminiHookEvent('SessionStart', { source: 'resume' }).activity).toBe('idle');
    expect(geminiHookEvent('Notification', fixture('tui/Notification.json')).checkpoint).toBeUndefined();
  });

  it('checkpoint before a step whose payload is garbage all the same, and say so', () => {
    expect(geminiHookEvent('BeforeTool', undefined)).toMatchObject({ checkpoint: { trigger: 'BeforeTool:tool', label: 'tool' }, problem: 'the BeforeTool payload was not JSON: checkpointed all the same' });
  });
});
