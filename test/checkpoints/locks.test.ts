// Locks left by crashed processes never block a snapshot; a live holder does.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/os/lock.js';
import { clearRefLock, gcRunning, takeGcLock } from '../../src/checkpoints/store/maintenance.js';
import { commitCount } from '../helpers/shadow.js';
import { createSandbox, runGitSync, write, type Sandbox } from '../helpers/tempRepo.js';
import { Children, deadPid } from '../helpers/children.js';
import { waitFor } from '../helpers/waitFor.js';

let sb: Sandbox;
const children = new Children();
beforeEach(() => {
  sb = createSandbox('rewind-locks-');
});
afterEach(async () => {
  await children.killAll();
  await sb.cleanup();
});

function lockContent(pid: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ pid, host: os.hostname(), purpose: 'snapshot', since: new Date().toISOString(), ...extra });
}

describe('locks', () => {
  it('a leftover index.lock in the shadow repo does not block the next snapshot', async () => {
    const root = sb.repo('index-lock');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const indexLock = path.join(checkpoints.repo.gitDir, 'index.lock');
    fs.writeFileSync(indexLock, 'left by a crashed git');
    write(root, 'a.txt', 'a\n');
    const { record } = await checkpoints.snapshot();
    expect(record).toMatchObject({ id: 2, deduped: false });
    expect(fs.existsSync(indexLock)).toBe(false);
    expect(commitCount(checkpoints.repo.gitDir)).toBe(2);
  });

  // git gc writes `<pid> <host>` to gc.pid while it runs; the engine's background gc runs
  // without the project lock. A live process stands in for it here.
  /** Marks a background gc as running (a live process's pid in gc.pid); returns how to end it. */
  async function gcRunningIn(gitDir: string): Promise<() => Promise<void>> {
    const gc = children.add(spawn('sleep', ['60'], { stdio: 'ignore' }));
    fs.writeFileSync(path.join(gitDir, 'gc.pid'), `${gc.pid ?? 0} ${os.hostname()}\n`);
    return async () => {
      const exited = new Promise((resolve) => gc.once('exit', resolve));
      gc.kill('SIGKILL');
      await exited;
    };
  }

  it('leaves the locks a running background gc holds, and removes them once it is gone', async () => {
    const root = sb.repo('gc-locks');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    const endGc = await gcRunningIn(gitDir);
    const packedRefsLock = path.join(gitDir, 'packed-refs.lock');
    fs.writeFileSync(packedRefsLock, 'held by gc');
    write(root, 'a.txt', 'a\n');
    expect((await checkpoints.snapshot()).record).toMatchObject({ id: 2, deduped: false });
    expect(fs.readFileSync(packedRefsLock, 'utf8')).toBe('held by gc');
    await endGc();
    write(root, 'a.txt', 'b\n');
    expect((await checkpoints.snapshot()).record).toMatchObject({ id: 3, deduped: false });
    expect(fs.existsSync(packedRefsLock)).toBe(false);
  });

  it('a ref lock is not taken from a running gc: the wait for it ends without touching it; once gc is gone, a leftover one is cleared', async () => {
    const root = sb.repo('gc-ref-lock-unit');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    const endGc = await gcRunningIn(gitDir);
    const refLock = path.join(gitDir, 'refs', 'checkpoints', '7.lock');
    fs.writeFileSync(refLock, '');
    const stderr = `fatal: Unable to create '${refLock}': File exists.`;
    expect(await clearRefLock(checkpoints.repo, stderr, 100)).toBe(false);
    expect(fs.existsSync(refLock)).toBe(true);
    await endGc();
    expect(await clearRefLock(checkpoints.repo, stderr, 100)).toBe(true);
    expect(fs.existsSync(refLock)).toBe(false);
  });

  it("retention's reclaim takes git's own gc lock: it waits for a running gc, git gc finds it taken, and a snapshot's ref lock is not waited out for it", async () => {
    const root = sb.repo('reclaim-gc-lock');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    const endGc = await gcRunningIn(gitDir);
    expect(await takeGcLock(checkpoints.repo, 100)).toBeUndefined();
    await endGc();
    const release = await takeGcLock(checkpoints.repo, 10_000);
    expect(release).toBeDefined();
    expect(gcRunning(checkpoints.repo)).toBe(true);
    // The background gc a snapshot starts (`git gc --auto`) does nothing while it is held; git gc says why.
    expect(() => runGitSync(sb.gitEnv, root, [`--git-dir=${gitDir}`, 'gc', '--quiet'])).toThrow(/gc is already running/);
    // The reclaim holds no ref lock without the project lock: one found now is stale, cleared at once.
    const refLock = path.join(gitDir, 'refs', 'checkpoints', '7.lock');
    fs.writeFileSync(refLock, '');
    expect(await clearRefLock(checkpoints.repo, `fatal: Unable to create '${refLock}': File exists.`, 600_000)).toBe(true);
    expect(fs.existsSync(refLock)).toBe(false);
    release?.();
    expect(gcRunning(checkpoints.repo)).toBe(false);
    expect(fs.existsSync(checkpoints.store.reclaiming)).toBe(false);
  });

  it('takes a gc.pid older than git allows (12 h) for one a killed gc left, even if its pid is in use again', async () => {
    const root = sb.repo('old-gc-pid');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    await gcRunningIn(gitDir);
    const thirteenHoursAgo = new Date(Date.now() - 13 * 60 * 60 * 1000);
    fs.utimesSync(path.join(gitDir, 'gc.pid'), thirteenHoursAgo, thirteenHoursAgo);
    const packedRefsLock = path.join(gitDir, 'packed-refs.lock');
    fs.writeFileSync(packedRefsLock, 'left by a killed gc');
    write(root, 'a.txt', 'a\n');
    expect((await checkpoints.snapshot()).record).toMatchObject({ id: 2, deduped: false });
    expect(fs.existsSync(packedRefsLock)).toBe(false);
  });

  it('waits out a ref lock while the background gc runs, instead of taking it from under it', async () => {
    const root = sb.repo('gc-ref-lock');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    const gitDir = checkpoints.repo.gitDir;
    const endGc = await gcRunningIn(gitDir);
    // The ref the next checkpoint writes, locked as gc's reflog expiry would.
    const refLock = path.join(gitDir, 'refs', 'checkpoints', '2.lock');
    fs.mkdirSync(path.dirname(refLock), { recursive: true });
    fs.writeFileSync(refLock, '');
    write(root, 'a.txt', 'a\n');
    const snapshot = checkpoints.snapshot();
    // The snapshot got as far as the ref: its file is stored (`add` ran before update-ref).
    const blob = createHash('sha1').update('blob 2\0a\n').digest('hex');
    await waitFor(() => fs.existsSync(path.join(gitDir, 'objects', blob.slice(0, 2), blob.slice(2))), 10_000, 'the snapshot storing a.txt');
    expect(fs.existsSync(refLock)).toBe(true);
    // gc ends (releasing its lock): the snapshot goes on.
    fs.rmSync(refLock);
    await endGc();
    expect((await snapshot).record).toMatchObject({ id: 2, deduped: false });
    expect(commitCount(gitDir)).toBe(2);
  });

  it('a leftover store lock of a dead process does not block, nor one whose pid was reused', async () => {
    const root = sb.repo('dead-lock');
    const checkpoints = sb.open(root);
    await checkpoints.snapshot();
    fs.writeFileSync(checkpoints.store.lock, lockContent(await deadPid()));
    write(root, 'a.txt', 'a\n');
    expect((await checkpoints.snapshot()).record.id).toBe(2);
    expect(fs.existsSync(checkpoints.store.lock)).toBe(false);

    // The pid is alive but it is another process than the one that took the lock (start time differs).
    fs.writeFileSync(checkpoints.store.lock, lockContent(process.pid, { start: '1' }));
    write(root, 'b.txt', 'b\n');
    expect((await checkpoints.snapshot()).record.id).toBe(3);
    expect(fs.existsSync(checkpoints.store.lock)).toBe(false);
  });

  it('snapshots started together from several engines on one project are serialised into one chain', async () => {
    const root = sb.repo('together');
    write(root, 'a.txt', 'a\n');
    const records = (await Promise.all([0, 1, 2].map(() => sb.open(root).snapshot()))).map((result) => result.record);
    expect(records.map((record) => record.id).sort()).toEqual([1, 2, 3]);
    const list = sb.open(root).list();
    expect(list.map((record) => record.id)).toEqual([1, 2, 3]);
    expect(list.map((record) => record.deduped)).toEqual([false, true, true]);
    expect(commitCount(sb.open(root).repo.gitDir)).toBe(1);
  });

  it('a lock held by a live process makes a snapshot wait until the holder is gone', async () => {
    const root = sb.repo('live-lock');
    const checkpoints = sb.open(root);
    fs.mkdirSync(checkpoints.store.root, { recursive: true });
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.add(holder);
    const holderPid = holder.pid;
    if (holderPid === undefined) throw new Error('no pid');
    const held = lockContent(holderPid);
    fs.writeFileSync(checkpoints.store.lock, held);

    // The engine's lock, with a short deadline, gives up and names the holder.
    await expect(acquireLock(checkpoints.store.lock, { purpose: 'test', waitMs: 200 })).rejects.toThrow(new RegExp(`another rewind is working on this project \\(pid ${holderPid}`));

    let settled = false;
    const pending = checkpoints.snapshot().finally(() => {
      settled = true;
    });
    // While the holder lives (checked here through a second path to the same lock file, so
    // this waits on the file and not on the in-process queue), the snapshot cannot run.
    const alias = path.join(sb.base, 'store-alias');
    fs.symlinkSync(checkpoints.store.root, alias);
    await expect(acquireLock(path.join(alias, 'lock'), { purpose: 'test', waitMs: 300 })).rejects.toThrow(/another rewind is working/);
    expect(settled).toBe(false);
    expect(fs.readFileSync(checkpoints.store.lock, 'utf8')).toBe(held);
    expect(checkpoints.list()).toEqual([]);

    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    const { record } = await pending;
    expect(record.id).toBe(1);
    expect(fs.existsSync(checkpoints.store.lock)).toBe(false);
  });

  it('waiters are served in order: a process re-taking the lock in a tight loop cannot starve another', async () => {
    const lockFile = path.join(sb.base, 'fair.lock');
    const lockModule = path.resolve(import.meta.dirname, '../../dist/os/lock.js');
    expect(fs.existsSync(lockModule), 'the built lock module (npm test builds first)').toBe(true);
    const loop = `
      const { acquireLock } = await import(${JSON.stringify(lockModule)});
      let first = true;
      for (;;) {
        const release = await acquireLock(${JSON.stringify(lockFile)}, { purpose: 'loop', waitMs: 60000 });
        if (first) { process.stdout.write('looping\\n'); first = false; }
        await new Promise((resolve) => setTimeout(resolve, 15));
        release();
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', loop], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    await new Promise<void>((resolve) => child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('looping') && resolve()));
    // Without a queue the loop takes the lock again the moment it lets go, every time.
    for (let round = 0; round < 10; round++) {
      const release = await acquireLock(lockFile, { purpose: 'restore', waitMs: 1_000 });
      release();
    }
  });
});
