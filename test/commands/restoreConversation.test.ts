// `rewind restore <id> --conversation | --both` on a checkpoint whose kept conversation is
// damaged (a chunk of the store changed): one line on stderr, exit 1, and nothing written:
// no new session file, no file of the project, no checkpoint.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationStoreOf } from '../../src/conversation/conversationRestore.js';
import { builtCli, repoRoot, requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sandbox: Sandbox;
beforeEach(() => {
  requireBuiltCli();
  sandbox = createSandbox('rewind-restore-conv-');
});
afterEach(async () => {
  await sandbox.cleanup();
});

const rewind = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, [builtCli, ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: sandbox.home, REWIND_HOME: sandbox.store, REWIND_CONFIG_DIR: sandbox.configDir }, encoding: 'utf8' });

describe('restoring a damaged conversation from the command line', () => {
  it('is one line, exit 1, and writes nothing', async () => {
    const root = sandbox.repo('project');
    // A real Claude transcript (test/fixtures/transcripts), where Claude keeps it.
    const transcripts = path.join(sandbox.base, 'claude', 'projects', '-project');
    fs.mkdirSync(transcripts, { recursive: true });
    const transcript = path.join(transcripts, 'e63af160-245b-449d-bd64-0d672fbdedc1.jsonl');
    fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'transcripts', 'claude', 'session.jsonl'), transcript);
    const engine = sandbox.project(root);
    write(root, 'a.txt', 'one\n');
    const store = conversationStoreOf(engine);
    const ref = store.capture('claude', { transcript, session: 'e63af160-245b-449d-bd64-0d672fbdedc1' });
    const { record } = await engine.snapshot({ label: 'Write a.txt', trigger: 'PreToolUse:Write', agent: 'claude', conversation: ref });
    write(root, 'a.txt', 'changed after\n');

    // Intact, it rebuilds (shown, not written: --dry-run).
    const dry = rewind(root, 'restore', String(record.id), '--conversation', '--dry-run');
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/would be rebuilt as a new session \(24 message\(s\)\), with an id of its own; nothing is written\n/);
    // No id that the restore would not write: the resume line says where it goes.
    expect(dry.stdout).toMatch(/\nit would resume with: claude .*--resume '?<new id>'?\n$/);

    // One byte of its chunk changed.
    const chunk = path.join(engine.conversationsDir, 'chunks', fs.readdirSync(path.join(engine.conversationsDir, 'chunks'))[0] ?? '');
    const bytes = fs.readFileSync(chunk);
    bytes[100] = (bytes[100] ?? 0) ^ 1;
    fs.writeFileSync(chunk, bytes);
    const checkpoints = engine.list().length;
    for (const mode of [['--conversation'], ['--both', '--yes'], ['--conversation', '--json']]) {
      const result = rewind(root, 'restore', String(record.id), ...mode);
      expect(result.status, mode.join(' ')).toBe(1);
      expect(result.stderr).toBe('rewind: the conversation kept with this checkpoint is damaged (a part does not match its hash): restore its files only\n');
      expect(result.stdout).toBe('');
      expect(fs.readdirSync(transcripts)).toEqual([path.basename(transcript)]);
      expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('changed after\n');
      expect(engine.list()).toHaveLength(checkpoints);
    }
    // The files alone still restore.
    const files = rewind(root, 'restore', String(record.id), '--yes');
    expect(files.status, files.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
  });
});
