// A restore by a user who may not write some folder of the project (the built CLI run as
// uid 65534 with setpriv: root may write anywhere). The plan checks every folder before
// anything is touched: what it may not change is left alone and said, the rest is
// restored, nothing is half-done, and finishing a restore that was cut off does not fail
// the same way.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nobodyPath, runAsNobody } from '../helpers/asNobody.js';
import { projectState, redoRefs, requireBuiltCli, restoreLeftovers, seamsModule, withSeams, type State } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeAll(() => {
  requireBuiltCli();
});
beforeEach(() => {
  sb = createSandbox('rewind-restore-perms-');
});
afterEach(async () => {
  await sb.cleanup();
});

/** `rewind ...args` as the unprivileged user. */
async function asNobody(root: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  return runAsNobody([...args, '-C', root], { ...sb.env, ...extraEnv }, sb.base);
}

/** Everything in the sandbox belongs to the unprivileged user, who then makes checkpoint #1 and edits. */
async function lockedProject(): Promise<{ root: string; stateAt1: State; stateNow: State }> {
  const root = sb.repo('locked');
  write(root, 'free.txt', 'free 1\n');
  write(root, 'gone.txt', 'only at #1\n');
  write(root, 'locked/a.txt', 'a 1\n');
  write(root, 'locked/only-at-1.txt', 'only at #1\n');
  execFileSync('chown', ['-R', '65534:65534', sb.base]);
  const stateAt1 = projectState(root);
  const first = await asNobody(root, ['snapshot', '--json']);
  expect(first.code, first.stderr).toBe(0);
  write(root, 'free.txt', 'free 2\n');
  fs.rmSync(path.join(root, 'gone.txt'));
  write(root, 'locked/a.txt', 'a 2\n');
  fs.rmSync(path.join(root, 'locked/only-at-1.txt'));
  write(root, 'locked/later.txt', 'made after #1\n');
  write(root, 'new.txt', 'made after #1\n');
  execFileSync('chown', ['-R', '65534:65534', root]);
  fs.chmodSync(path.join(root, 'locked'), 0o555);
  return { root, stateAt1, stateNow: projectState(root) };
}

describe('a folder the user may not write', () => {
  it('is left alone and said in the plan and the restore; everything else is restored and the restore finishes', async () => {
    const { root, stateAt1, stateNow } = await lockedProject();
    const plan = await asNobody(root, ['restore', '1', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    for (const file of ['locked/a.txt', 'locked/only-at-1.txt', 'locked/later.txt']) {
      expect(plan.stdout).toMatch(new RegExp(`^\\s+left alone\\s+${file.replace('.', '\\.')}: the folder locked is not writable \\(permission denied\\)`, 'm'));
    }
    expect(plan.stdout).toMatch(/^\s+write\s+free\.txt$/m);
    expect(plan.stdout).toMatch(/^\s+create\s+gone\.txt$/m);
    expect(plan.stdout).toMatch(/^\s+delete\s+new\.txt$/m);

    const result = await asNobody(root, ['restore', '1', '--yes']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/restored checkpoint #1: 3 file\(s\) changed \(2 written, 1 deleted\)/);
    expect(result.stdout).toMatch(/left alone\s+locked\/a\.txt: the folder locked is not writable/);
    // #1's files where the user may write; locked/ exactly as it was.
    const want: State = { ...stateNow, 'free.txt': stateAt1['free.txt'] ?? '', 'gone.txt': stateAt1['gone.txt'] ?? '' };
    delete want['new.txt'];
    expect(projectState(root)).toEqual(want);
    expect(restoreLeftovers(sb.open(root).store.root, root)).toEqual([]);

    // And it is undone like any other.
    const redo = await asNobody(root, ['redo', '--yes']);
    expect(redo.code, redo.stderr).toBe(0);
    expect(projectState(root)).toEqual(stateNow);
  });

  it('finishing a restore cut off before the folder was made read-only leaves it alone too, instead of failing the same way', async () => {
    const { root, stateNow } = await lockedProject();
    fs.chmodSync(path.join(root, 'locked'), 0o755);
    const killed = await asNobody(root, ['restore', '1', '--yes'], withSeams({}, { REWIND_TEST_CRASH_AFTER_OPS: '1' }, nobodyPath(seamsModule)));
    expect(killed.signal).toBe('SIGKILL');
    fs.chmodSync(path.join(root, 'locked'), 0o555);
    const lockedNow = Object.fromEntries(Object.entries(projectState(root)).filter(([file]) => file.startsWith('locked')));

    const finish = await asNobody(root, ['restore', '1', '--yes']);
    expect(finish.stderr).toBe('');
    expect(finish.code).toBe(0);
    expect(finish.stdout).toMatch(/left alone\s+locked\/.*: the folder locked is not writable/);
    const after = projectState(root);
    expect(Object.fromEntries(Object.entries(after).filter(([file]) => file.startsWith('locked')))).toEqual(lockedNow);
    expect(after['free.txt']).not.toBe(stateNow['free.txt']);
    expect(restoreLeftovers(sb.open(root).store.root, root)).toEqual([]);
  });

  it('a change the system refuses although the folder looks writable (a sticky folder, another user\'s file) is left alone and said, and the rest goes on', async () => {
    const root = sb.repo('sticky');
    write(root, 'free.txt', 'free 1\n');
    write(root, 'shared/theirs.txt', 'theirs 1\n');
    execFileSync('chown', ['-R', '65534:65534', sb.base]);
    // Like /tmp: anyone may add files, only a file's owner may replace or remove it.
    execFileSync('chown', ['-R', '0:0', path.join(root, 'shared')]);
    fs.chmodSync(path.join(root, 'shared'), 0o1777);
    expect((await asNobody(root, ['snapshot'])).code).toBe(0);
    write(root, 'free.txt', 'free 2\n');
    write(root, 'shared/theirs.txt', 'theirs 2\n');
    execFileSync('chown', ['65534:65534', path.join(root, 'free.txt')]);

    const result = await asNobody(root, ['restore', '1', '--yes']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/restored checkpoint #1: 1 file\(s\) changed \(1 written, 0 deleted\)/);
    expect(result.stdout).toMatch(/left alone\s+shared\/theirs\.txt: could not write it \(permission denied\)/);
    expect(fs.readFileSync(path.join(root, 'free.txt'), 'utf8')).toBe('free 1\n');
    expect(fs.readFileSync(path.join(root, 'shared/theirs.txt'), 'utf8')).toBe('theirs 2\n');
    expect(restoreLeftovers(sb.open(root).store.root, root)).toEqual([]);
  });

  it('a project the user may not change at all is a one-line error, with nothing changed and no redo point left', async () => {
    const root = sb.repo('all-locked');
    write(root, 'a.txt', 'a 1\n');
    execFileSync('chown', ['-R', '65534:65534', sb.base]);
    expect((await asNobody(root, ['snapshot'])).code).toBe(0);
    write(root, 'a.txt', 'a 2\n');
    write(root, 'b.txt', 'made after #1\n');
    execFileSync('chown', ['-R', '65534:65534', root]);
    fs.chmodSync(root, 0o555);
    const before = projectState(root);
    const result = await asNobody(root, ['restore', '1', '--yes']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^rewind: cannot restore checkpoint #1: you may not change any of the files it would change \(.*not writable \(permission denied\)\); give yourself write access there .*; nothing was changed\n$/);
    expect(projectState(root)).toEqual(before);
    const checkpoints = sb.open(root);
    expect(checkpoints.list().map((record) => record.id)).toEqual([1]);
    expect(redoRefs(checkpoints.repo.gitDir)).toEqual([]);
  });
});

