// Issue 11 item 4: a rewind killed with SIGKILL mid-snapshot cannot stop the git it started.
// The next holder of the project lock stops those processes before it takes the lock, so
// they never write the shadow's index or refs under it (on main before the fix, the orphan
// went on and pointed the new checkpoint's ref at its own commit).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireBuiltCli, runBuiltCli } from '../helpers/restoreKit.js';
import { shadowGit } from '../helpers/shadow.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';
import { deadPid, running } from '../helpers/children.js';
import { acquireLock } from '../../src/os/lock.js';
import { startProcess } from '../../src/checkpoints/git/git.js';
import { groupRunning } from '../../src/os/processAlive.js';
import { liveGroups, signalGroup } from '../../src/os/processGroup.js';
import { markedAs } from '../../src/os/processOwner.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-orphan-');
});
afterEach(async () => {
  fs.writeFileSync(path.join(sb.base, 'release'), '');
  await sb.cleanup();
});

/**
 * A `git` first on PATH that, once armed, holds its first `add` until released (the real
 * git then runs): a snapshot caught in the middle, for as long as the test needs.
 */
function slowGit(): string {
  const bin = path.join(sb.base, 'bin');
  fs.mkdirSync(bin);
  const real = spawnSyncWhich('git');
  const marks = sb.base;
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh
for arg in "$@"; do
  if [ "$arg" = add ] && [ -e '${marks}/armed' ]; then
    rm -f '${marks}/armed'
    echo $PPID > '${marks}/script'
    echo $$ > '${marks}/in-add'
    while [ ! -e '${marks}/release' ]; do sleep 0.02; done
  fi
done
exec '${real}' "$@"
`,
    { mode: 0o755 },
  );
  return bin;
}

function spawnSyncWhich(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`${name} not on PATH`);
}

describe('a snapshot killed with SIGKILL', () => {
  // Recorded: the lock's groups file names the snapshot's script. Unrecorded: the holder was
  // killed before it wrote that file (the script runs while Node has yet to); its processes
  // carry its mark in their environment.
  it.each([
    ['recorded', false],
    ['not recorded yet', true],
  ])("leaves no git running into the next holder's work (its process group %s)", async (_case, unrecorded) => {
    const cli = requireBuiltCli();
    const root = sb.repo('orphan');
    const env = { ...sb.env, PATH: `${slowGit()}:${process.env.PATH ?? ''}` };
    expect((await runBuiltCli(['snapshot', '--label', 'one'], env, root)).code).toBe(0);

    write(root, 'f.txt', 'killed mid-snapshot\n');
    fs.writeFileSync(path.join(sb.base, 'armed'), '');
    const victim = spawn(process.execPath, [cli, 'snapshot', '--label', 'killed'], { cwd: root, env, stdio: 'ignore' });
    // The shell creates the file before it writes the pid: wait for the whole line.
    const written = (name: string) => /^\d+\n$/.test(fs.existsSync(path.join(sb.base, name)) ? fs.readFileSync(path.join(sb.base, name), 'utf8') : '');
    await waitFor(() => written('script') && written('in-add'), 20_000, 'the snapshot to reach git add');
    const orphan = Number(fs.readFileSync(path.join(sb.base, 'in-add'), 'utf8'));
    // The snapshot's sh, which would go on to write-tree, commit-tree and update-ref.
    const script = Number(fs.readFileSync(path.join(sb.base, 'script'), 'utf8'));
    // The snapshot records its script's group once spawn returns (the script may run first).
    const groupsFile = path.join(path.dirname(sb.open(root).repo.gitDir), 'lock.groups');
    await waitFor(() => fs.existsSync(groupsFile) && fs.readFileSync(groupsFile, 'utf8').includes('"groups":[{'), 20_000, 'the group recorded');
    const exited = new Promise((resolve) => victim.once('exit', resolve));
    victim.kill('SIGKILL');
    await exited;
    expect(running(orphan)).toBe(true);
    if (unrecorded) fs.rmSync(groupsFile);

    write(root, 'f.txt', 'the next one\n');
    const next = await runBuiltCli(['snapshot', '--json', '--label', 'next'], env, root);
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    const record = JSON.parse(next.stdout) as { id: number; commit: string };
    // The lock's next holder stopped what the dead one left running before it went ahead.
    expect(running(orphan)).toBe(false);
    expect(running(script)).toBe(false);
    // The orphans (were they still alive) may now go on: let them, and wait for them to be gone.
    fs.writeFileSync(path.join(sb.base, 'release'), '');
    await waitFor(() => !running(orphan) && !running(script), 20_000, 'the orphaned snapshot script to be gone');

    const engine = sb.open(root);
    expect(shadowGit(engine.repo.gitDir, 'rev-parse', `refs/checkpoints/${record.id}`).trim()).toBe(record.commit);
    expect(engine.list().map((entry) => entry.label)).toEqual(['one', 'next']);
    write(root, 'f.txt', 'after\n');
    expect((await runBuiltCli(['snapshot', '--label', 'after'], env, root)).code).toBe(0);
  });

  // Two waiters may both find the holder dead: the first breaks the lock, takes it and records
  // its own running groups in lock.groups while the second still acts on the dead holder.
  it('the breaker stops the dead holder\'s processes and only those: not the groups a live holder recorded since', async () => {
    const root = sb.repo('two-breakers');
    const env = { ...sb.env };
    expect((await runBuiltCli(['snapshot', '--label', 'one'], env, root)).code).toBe(0);
    const lock = path.join(path.dirname(sb.open(root).repo.gitDir), 'lock');

    // The first breaker: this process, holding the lock with a git-like process running.
    const release = await acquireLock(lock, { purpose: 'the first breaker' });
    const before = new Set(liveGroups());
    const mine = startProcess('sleep', ['60'], { cwd: root, env: { PATH: process.env.PATH ?? '' } });
    const group = liveGroups().find((pid) => !before.has(pid)) ?? 0;
    let orphan: ReturnType<typeof spawn> | undefined;
    try {
      await waitFor(() => fs.existsSync(`${lock}.groups`) && fs.readFileSync(`${lock}.groups`, 'utf8').includes(`"pid":${group}`), 5_000, 'its group recorded');
      // A process the dead holder started (it carries its mark), and the lock as the second breaker saw it.
      const dead = { pid: await deadPid(), host: os.hostname(), start: '12345' };
      orphan = spawn('sleep', ['60'], { stdio: 'ignore', detached: true, env: markedAs(dead, { PATH: process.env.PATH ?? '' }) });
      const { pid: orphanPid = 0 } = orphan;
      await waitFor(() => running(orphanPid) && fs.readFileSync(`/proc/${orphanPid}/comm`, 'utf8').trim() === 'sleep', 5_000, "the dead holder's process");
      fs.writeFileSync(lock, JSON.stringify({ ...dead, purpose: 'snapshot', since: new Date().toISOString() }));

      write(root, 'f.txt', 'the second breaker\n');
      const second = await runBuiltCli(['snapshot', '--label', 'second'], env, root);
      expect(second.stderr).toBe('');
      expect(second.code).toBe(0);
      expect(running(orphanPid)).toBe(false);
      expect(groupRunning(group)).toBe(true);
    } finally {
      orphan?.kill('SIGKILL');
      signalGroup(group, 'SIGKILL');
      await mine.finish().catch(() => undefined);
      release();
    }
  });
});
