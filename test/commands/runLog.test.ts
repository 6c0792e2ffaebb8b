// REWIND_LOG: one line per checkpoint, hook call, restore, redo and retention pass, from every
// rewind process, with how long it took; names, ids and counts, never a file's content.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtCli, requireBuiltCli } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  requireBuiltCli();
  sb = createSandbox('rewind-run-log-');
});
afterEach(() => sb.cleanup());

describe('REWIND_LOG', () => {
  it('says what each process did and how long it took, and never what a file holds', () => {
    const root = sb.repo('logged');
    const log = path.join(sb.base, 'rewind.log');
    const env = { ...sb.env, REWIND_LOG: log, CLAUDE_CONFIG_DIR: path.join(sb.base, 'claude') };
    const cli = (args: string[], input?: string) => {
      const result = spawnSync(process.execPath, [builtCli, ...args], { cwd: root, env, input, encoding: 'utf8', timeout: 60_000 });
      expect(result.status, result.stderr).toBe(0);
    };
    const secret = 'the-secret-in-the-file';
    write(root, 'secret.txt', `${secret}\n`);
    cli(['snapshot', '--label', 'before']);
    write(root, 'secret.txt', `${secret} changed\n`);
    cli(['hook', 'claude', 'PreToolUse'], JSON.stringify({ session_id: 'c-1', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(root, 'secret.txt'), content: secret } }));
    cli(['restore', '1', '--yes']);
    cli(['redo', '--yes']);
    cli(['prune']);

    const text = fs.readFileSync(log, 'utf8');
    expect(text).not.toContain(secret);
    const lines = text.trimEnd().split('\n');
    const what = lines.map((line) => /^\S+ pid=\d+ (\S+)/.exec(line)?.[1]);
    // A restore's and a redo's own redo point is in their line, not a snapshot line of its own.
    expect(what).toEqual(['snapshot', 'snapshot', 'hook', 'restore', 'redo', 'retention']);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z pid=\d+ \w+ .*ms=\d+/);
    expect(lines[2]).toMatch(/ hook agent=claude event=PreToolUse app=false ms=\d+$/);
    expect(lines[1]).toMatch(/ snapshot trigger=PreToolUse:Write project=\S+ id=2 unchanged=false files=1 waited=\d+ ms=\d+ result=ok$/);
    expect(lines[3]).toMatch(/ restore id=1 project=\S+ written=1 deleted=0 leftAlone=0 redoPoint=\d+ ms=\d+ result=ok$/);
    expect(lines[4]).toMatch(/ redo project=\S+ written=1 deleted=0 leftAlone=0 redoPoint=\d+ undid=\d+ ms=\d+ result=ok$/);
    expect(lines[5]).toMatch(/ retention project=\S+ days=14 maxGb=5 dryRun=false byAge=0 bySize=0 bytesBefore=\d+ bytesAfter=\d+ ms=\d+ result=ok$/);
  });

  it('costs nothing when it cannot be written', () => {
    const root = sb.repo('unwritable');
    const result = spawnSync(process.execPath, [builtCli, 'snapshot'], { cwd: root, env: { ...sb.env, REWIND_LOG: path.join(sb.base, 'no-such-folder', 'rewind.log') }, encoding: 'utf8' });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
