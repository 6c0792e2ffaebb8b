// `rewind restore <id> --conversation | --both` on a checkpoint whose kept conversation is
// damaged (a chunk of the store changed): one line on stderr, exit 1, and nothing written:
// no new session file, no file of the project, no checkpoint.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationStoreOf } from '../../src/conversation/conversationRestore.js';
import { conversationRestores } from '../../src/conversation/restoredConversations.js';
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

/** A project whose checkpoint (of a.txt `one`) keeps a real Claude transcript (test/fixtures/transcripts), where Claude keeps it. */
async function checkpointWithConversation() {
  const root = sandbox.repo('project');
  const transcripts = path.join(sandbox.base, 'claude', 'projects', '-project');
  fs.mkdirSync(transcripts, { recursive: true });
  const transcript = path.join(transcripts, 'e63af160-245b-449d-bd64-0d672fbdedc1.jsonl');
  fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'transcripts', 'claude', 'session.jsonl'), transcript);
  const engine = sandbox.project(root);
  write(root, 'a.txt', 'one\n');
  const ref = conversationStoreOf(engine).capture('claude', { transcript, session: 'e63af160-245b-449d-bd64-0d672fbdedc1' });
  const { record } = await engine.snapshot({ label: 'Write a.txt', trigger: 'PreToolUse:Write', agent: 'claude', conversation: ref });
  return { root, transcripts, transcript, engine, record };
}

describe('restoring a damaged conversation from the command line', () => {
  it('is one line, exit 1, and writes nothing', async () => {
    const { root, transcripts, transcript, engine, record } = await checkpointWithConversation();
    write(root, 'a.txt', 'changed after\n');

    // Intact, it rebuilds (shown, not written: --dry-run).
    const dry = rewind(root, 'restore', String(record.id), '--conversation', '--dry-run');
    expect(dry.status, dry.stderr).toBe(0);
    expect(conversationRestores(engine.conversationsDir), 'a dry run notes no restore').toEqual([]);
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
      expect(conversationRestores(engine.conversationsDir), 'no restore noted').toEqual([]);
    }
    // The files alone still restore.
    const files = rewind(root, 'restore', String(record.id), '--yes');
    expect(files.status, files.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
  });
});

describe('a conversation restore from the command line', () => {
  it('is noted with the newest checkpoint then, as the picker counts the turns a later one drops', async () => {
    const { root, engine, record } = await checkpointWithConversation();
    write(root, 'a.txt', 'two\n');
    const { record: later } = await engine.snapshot({ label: 'Write a.txt', trigger: 'PreToolUse:Write' });

    const result = rewind(root, 'restore', String(record.id), '--conversation');
    expect(result.status, result.stderr).toBe(0);
    expect(conversationRestores(engine.conversationsDir)).toEqual([{ to: record.id, after: later.id }]);
  });
});
