// `rewind restore <id> --session` (issue 28 item 2): two sessions writing the same tree, their
// steps interleaved; each one's restore puts back only the files its own steps changed since
// the checkpoint, leaves the other's as they are now, and names a file both changed.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-session-');
});
afterEach(() => sb.cleanup());

const read = (root: string, file: string) => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined);

/** A step of `session`: a checkpoint taken as its hook would take it, then its write. */
async function step(root: string, session: string, label: string, change: () => void): Promise<number> {
  const taken = await rewind(['snapshot', '--label', label, '--trigger', 'PreToolUse:Edit', '--json'], { ...sb.env, REWIND_SESSION: session }, root);
  expect(taken.code, taken.stderr).toBe(0);
  change();
  return (JSON.parse(taken.stdout) as { id: number }).id;
}

async function twoSessions(): Promise<{ root: string; start: number }> {
  const root = sb.repo('shared');
  write(root, 'a.txt', 'a0\n');
  write(root, 'b.txt', 'b0\n');
  write(root, 'shared.txt', 's0\n');
  const start = await step(root, 'agent-a', 'Edit a.txt', () => write(root, 'a.txt', 'a1\n'));
  await step(root, 'agent-b', 'Edit b.txt', () => write(root, 'b.txt', 'b1\n'));
  await step(root, 'agent-a', 'Write new.txt', () => write(root, 'new.txt', 'made by a\n'));
  await step(root, 'agent-b', 'Edit shared.txt', () => write(root, 'shared.txt', 's1 by b\n'));
  await step(root, 'agent-a', 'Edit shared.txt', () => write(root, 'shared.txt', 's2 by a\n'));
  return { root, start };
}

describe('rewind restore --session', () => {
  it("puts back only this session's files, leaves the other session's as they are, and names a file both changed", async () => {
    const { root, start } = await twoSessions();
    const done = await rewind(['restore', String(start), '--session', '--yes'], { ...sb.env, REWIND_SESSION: 'agent-a' }, root);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(new RegExp(`^session agent-a: 2 file\\(s\\) its steps changed since #${start}; 1 changed only by others stay as they are\\n  left alone  shared\\.txt: changed by another session or outside one too since #${start} \\(\`rewind restore ${start} --only shared\\.txt\` restores it alone\\)`));
    expect([read(root, 'a.txt'), read(root, 'new.txt'), read(root, 'b.txt'), read(root, 'shared.txt')]).toEqual(['a0\n', undefined, 'b1\n', 's2 by a\n']);
    expect((await rewind(['redo', '--yes'], sb.env, root)).code).toBe(0);
    expect([read(root, 'a.txt'), read(root, 'new.txt')]).toEqual(['a1\n', 'made by a\n']);
  });

  it("the other session's restore leaves the first one's files; without REWIND_SESSION it is the checkpoint's session", async () => {
    const { root, start } = await twoSessions();
    const second = start + 1;
    const done = await rewind(['restore', String(second), '--session', '--yes', '--json'], sb.env, root);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ checkpoint: second, changed: ['b.txt'], deleted: [] });
    expect(done.stderr).toMatch(/^session agent-b: 1 file\(s\)/);
    expect([read(root, 'a.txt'), read(root, 'new.txt'), read(root, 'b.txt'), read(root, 'shared.txt')]).toEqual(['a1\n', 'made by a\n', 'b0\n', 's2 by a\n']);
  });

  it('--only narrows it; nothing of the session left to put back says so; a checkpoint of no session needs REWIND_SESSION', async () => {
    const { root, start } = await twoSessions();
    const narrowed = await rewind(['restore', String(start), '--session', '--only', 'new.txt', '--yes'], { ...sb.env, REWIND_SESSION: 'agent-a' }, root);
    expect(narrowed.code, narrowed.stderr).toBe(0);
    expect([read(root, 'a.txt'), read(root, 'new.txt')]).toEqual(['a1\n', undefined]);
    const shared = await rewind(['restore', String(start), '--session', '--only', 'shared.txt', '--yes'], { ...sb.env, REWIND_SESSION: 'agent-a' }, root);
    expect(shared.code, shared.stderr).toBe(0);
    expect(read(root, 'shared.txt')).toBe('s0\n');
    const none = await rewind(['restore', String(start), '--session', '--yes'], { ...sb.env, REWIND_SESSION: 'agent-c' }, root);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/nothing to restore: the files this session changed since/);
    const plain = await rewind(['snapshot', '--label', 'by hand', '--json'], sb.env, root);
    const id = (JSON.parse(plain.stdout) as { id: number }).id;
    const refused = await rewind(['restore', String(id), '--session', '--yes'], sb.env, root);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/was taken outside any session and REWIND_SESSION is not set/);
    const usage = await rewind(['restore', String(start), '--session', '--both'], sb.env, root);
    expect(usage.code).toBe(2);
  });
});
