// `rewind hook` given a hostile transcript_path (issue 23, items 1 and 2): a FIFO, a device,
// a system file, a link to one. The hook returns at once, the checkpoint is still taken, one
// line on stderr says why the conversation was not kept, and nothing was read into the store.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtCli, requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sandbox: Sandbox;
beforeEach(() => {
  requireBuiltCli();
  sandbox = createSandbox('rewind-hook-transcript-');
});
afterEach(async () => {
  await sandbox.cleanup();
});

const session = '530cd378-68ba-4a2a-a013-c740111b5430';

/** One Claude PreToolUse hook call, as the agent makes it (no app: the hook checkpoints by itself). */
function hook(root: string, transcript: string) {
  const payload = JSON.stringify({ session_id: session, transcript_path: transcript, cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'true' } });
  const env = { PATH: process.env.PATH, HOME: sandbox.home, REWIND_HOME: sandbox.store, REWIND_CONFIG_DIR: sandbox.configDir, CLAUDE_CONFIG_DIR: path.join(sandbox.base, 'claude') };
  // A generous budget for "it returns at all": before the fix, a FIFO kept it waiting for good.
  return spawnSync(process.execPath, [builtCli, 'hook', 'claude', 'PreToolUse'], { cwd: root, env, input: payload, encoding: 'utf8', timeout: 30_000 });
}

/** Every byte the project's conversation store holds in chunks. */
function keptBytes(root: string): Buffer[] {
  const chunks = path.join(sandbox.project(root).conversationsDir, 'chunks');
  return fs.existsSync(chunks) ? fs.readdirSync(chunks).filter((name) => !name.startsWith('.')).map((name) => fs.readFileSync(path.join(chunks, name))) : [];
}

describe('a hook whose payload names a transcript that is not the agent’s own', () => {
  it('returns, checkpoints, says why in one line, and reads nothing of it', () => {
    const root = sandbox.repo('project');
    const folder = path.join(sandbox.base, 'claude', 'projects', '-project');
    fs.mkdirSync(folder, { recursive: true });
    const own = path.join(folder, `${session}.jsonl`);
    const fifoElsewhere = path.join(sandbox.base, 'f');
    const cases: { transcript: string; why: RegExp; make?: () => void }[] = [
      // The FIFO where the agent's own transcript would be, and one anywhere.
      { transcript: own, why: /is a FIFO: not read$/, make: () => spawnSync('mkfifo', [own]) },
      { transcript: fifoElsewhere, why: /is not in the agent's transcript folder .*: not read$/, make: () => spawnSync('mkfifo', [fifoElsewhere]) },
      { transcript: '/dev/zero', why: /is not in the agent's transcript folder/ },
      { transcript: '/etc/shadow', why: /is not in the agent's transcript folder/ },
      // A link named as the session's transcript, where it would be, to a system file.
      { transcript: own, why: /is a symbolic link: not read$/, make: () => fs.symlinkSync('/etc/shadow', own) },
    ];
    let checkpoints = 0;
    for (const [index, { transcript, why, make }] of cases.entries()) {
      fs.rmSync(own, { force: true });
      make?.();
      write(root, 'a.txt', `change ${index}\n`);
      const result = hook(root, transcript);
      expect(result.error, transcript).toBeUndefined();
      expect(result.status, transcript).toBe(0);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, transcript).toHaveLength(1);
      expect(lines[0]).toMatch(/^rewind: the conversation could not be kept with this checkpoint \(its files are\): /);
      expect(lines[0]).toMatch(why);
      // The checkpoint is taken all the same, with no conversation.
      const list = sandbox.project(root).list();
      expect(list).toHaveLength(++checkpoints);
      expect(list.at(-1)).toMatchObject({ trigger: 'PreToolUse:Bash', conversation: null });
    }
    expect(keptBytes(root)).toEqual([]);

    // The agent's own transcript, where it keeps it: kept.
    fs.rmSync(own, { force: true });
    fs.writeFileSync(own, `{"type":"user","sessionId":"${session}","message":{"role":"user","content":"hi"}}\n`);
    write(root, 'a.txt', 'last\n');
    const result = hook(root, own);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(sandbox.project(root).list().at(-1)?.conversation).toMatchObject({ agent: 'claude' });
    expect(keptBytes(root)).toEqual([fs.readFileSync(own)]);
  });
});
