// `rewind export --conversation` and `rewind import` of a kept Claude Code transcript (a real
// one, test/fixtures/transcripts): the captures travel checked, are filed where Claude keeps
// the clone's sessions on the other machine, and rebuild there; a damaged capture stops the
// export (no file written); without --conversation no transcript byte is in the file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationStoreOf } from '../../src/conversation/conversationRestore.js';
import { rewind } from '../helpers/io.js';
import { repoRoot } from '../helpers/restoreKit.js';
import { write, type Sandbox } from '../helpers/tempRepo.js';
import { twoMachines } from '../helpers/twoMachines.js';

const session = 'e63af160-245b-449d-bd64-0d672fbdedc1';
let here: Sandbox;
let there: Sandbox;
twoMachines('rewind-conv-', (a, b) => {
  here = a;
  there = b;
});

/** A project whose checkpoint #1 keeps a Claude transcript, kept where Claude keeps it. */
async function project(): Promise<{ root: string; env: NodeJS.ProcessEnv }> {
  const root = here.repo('project');
  const claude = path.join(here.base, 'claude');
  const transcripts = path.join(claude, 'projects', root.replace(/[^a-zA-Z0-9]/g, '-'));
  fs.mkdirSync(transcripts, { recursive: true });
  const transcript = path.join(transcripts, `${session}.jsonl`);
  fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'transcripts', 'claude', 'session.jsonl'), transcript);
  const engine = here.project(root);
  write(root, 'a.txt', 'one\n');
  const ref = conversationStoreOf(engine).capture('claude', { transcript, session });
  await engine.snapshot({ label: 'Write a.txt', trigger: 'PreToolUse:Write', agent: 'claude', session: 's', conversation: ref });
  write(root, 'a.txt', 'two\n');
  return { root, env: { ...here.env, CLAUDE_CONFIG_DIR: claude } };
}

describe('export and import with the conversation', () => {
  it('carries the transcript only with --conversation, files it for the clone there, and rebuilds it', async () => {
    const { root, env } = await project();
    const plain = path.join(here.base, 'plain.rewind');
    const full = path.join(here.base, 'full.rewind');
    expect((await rewind(['export', '-o', plain], env, root)).code).toBe(0);
    expect((await rewind(['export', '--conversation', '-o', full], env, root)).code).toBe(0);
    // A reply of the model is in the transcript alone.
    expect(fs.readFileSync(plain).includes('I write both at once.')).toBe(false);
    expect(fs.readFileSync(full).includes('I write both at once.')).toBe(true);

    const parent = there.folder('.');
    there.git(parent, 'clone', '-q', root, 'clone');
    const clone = path.join(parent, 'clone');
    const claudeThere = path.join(there.base, 'claude');
    const envThere = { ...there.env, CLAUDE_CONFIG_DIR: claudeThere };
    // Imported without its conversation, the checkpoint offers files only.
    expect((await rewind(['import', plain], envThere, clone)).code).toBe(0);
    expect((await rewind(['restore', '1', '--conversation', '--dry-run'], envThere, clone)).stderr).toMatch(/kept no conversation/);

    const other = there.folder('other');
    there.git(other, 'init', '-q');
    const imported = await rewind(['import', full], envThere, other);
    expect(imported.code, imported.stderr).toBe(0);
    const dry = await rewind(['restore', '1', '--conversation', '--dry-run', '--json'], envThere, other);
    expect(dry.code, dry.stderr).toBe(0);
    const { conversation } = JSON.parse(dry.stdout) as { conversation: { file: string; messages: number } };
    expect(path.dirname(conversation.file)).toBe(path.join(claudeThere, 'projects', other.replace(/[^a-zA-Z0-9]/g, '-')));
    expect(conversation.messages).toBe(24);
    const done = await rewind(['restore', '1', '--both', '--yes', '--json'], envThere, other);
    expect(done.code, done.stderr).toBe(0);
    const written = (JSON.parse(done.stdout) as { conversation: { file: string } }).conversation.file;
    expect(fs.readFileSync(written, 'utf8')).toContain('I write both at once.');
    expect(fs.readFileSync(path.join(other, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it("a conversation with no place here (its transcript outside where its agent keeps them here) comes without it, said once; labels lose control characters", async () => {
    const { root, env } = await project();
    // A Gemini CLI session kept on this machine: Gemini has not run in the clone on the other machine, so there it has no place yet.
    const chats = path.join(here.home, '.gemini', 'tmp', 'someproject', 'chats');
    fs.mkdirSync(chats, { recursive: true });
    const transcript = path.join(chats, 'session-2026-12-01T10-00-abcdef12.jsonl');
    fs.writeFileSync(transcript, '{"type":"user","content":"hello"}\n');
    const engine = here.project(root);
    write(root, 'b.txt', 'b\n');
    const ref = conversationStoreOf(engine).capture('gemini', { transcript, session: 'abcdef12-0000-4000-8000-000000000000' });
    await engine.snapshot({ label: 'replace \u001b[2J\u001b[31mb.txt', trigger: 'BeforeTool:replace', agent: 'gemini', session: 'g', conversation: ref });
    const file = path.join(here.base, 'full.rewind');
    expect((await rewind(['export', '--conversation', '-o', file], env, root)).code).toBe(0);

    const parent = there.folder('.');
    there.git(parent, 'clone', '-q', root, 'clone');
    const clone = path.join(parent, 'clone');
    const imported = await rewind(['import', file, '--json'], { ...there.env, CLAUDE_CONFIG_DIR: path.join(there.base, 'claude') }, clone);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toBe(`rewind: warning: 1 conversation(s) of ${file} have no place here (an agent rewind does not know, Gemini CLI not yet run in this folder, or a transcript outside where the agent keeps them): those checkpoints came with their files only\n`);
    expect(JSON.parse(imported.stdout)).toMatchObject({ conversationsLeftOut: 1 });
    const records = there.project(clone).list();
    expect(records.map((record) => [record.agent, record.conversation === null])).toEqual([
      ['claude', false],
      ['gemini', true],
    ]);
    expect(records[1]?.label).toBe('replace \ufffd[2J\ufffd[31mb.txt');
  });

  it('stops at a damaged capture, naming its checkpoint, and writes no file', async () => {
    const { root, env } = await project();
    const chunks = path.join(here.project(root).conversationsDir, 'chunks');
    const chunk = path.join(chunks, fs.readdirSync(chunks)[0] ?? '');
    const bytes = fs.readFileSync(chunk);
    bytes[100] = (bytes[100] ?? 0) ^ 1;
    fs.writeFileSync(chunk, bytes);
    const file = path.join(here.base, 'full.rewind');
    expect(await rewind(['export', '--conversation', '-o', file], env, root)).toMatchObject({
      code: 1,
      stderr: 'rewind: the conversation kept with checkpoint #1 cannot be read (the conversation kept with this checkpoint is damaged (a part does not match its hash)): export without --conversation, or a range without #1\n',
    });
    expect(fs.existsSync(file)).toBe(false);
    expect((await rewind(['export', '-o', file], env, root)).code).toBe(0);
  });
});
