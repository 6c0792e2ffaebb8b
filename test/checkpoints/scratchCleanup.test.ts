// Scratch folders a killed Rewind left in the store (a bisect's test folder) are removed by
// the next command; a live process keeps its own, told from a reused pid by its start time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupRunning, processStartTime } from '../../src/os/processAlive.js';
import { rewind } from '../helpers/io.js';
import { cliPath } from '../helpers/term.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-scratch-clean-');
});
afterEach(() => sb.cleanup());

async function twoCheckpoints(): Promise<{ root: string; storeRoot: string }> {
  const root = sb.repo('proj');
  const checkpoints = sb.project(root);
  for (const state of ['ok', 'broken']) {
    write(root, 'status', `${state}\n`);
    await checkpoints.snapshot({ label: state, backgroundScan: false });
  }
  const [store] = fs.readdirSync(path.join(sb.store, 'history'));
  return { root, storeRoot: path.join(sb.store, 'history', store ?? '') };
}

const scratchIn = (storeRoot: string) => fs.readdirSync(storeRoot).filter((name) => name.startsWith('scratch-')).sort();

describe('scratch folders of ended processes', () => {
  it('a bisect SIGKILLed mid-test leaves its folder; the next command removes it', async () => {
    const { root, storeRoot } = await twoCheckpoints();
    const pidFile = path.join(sb.base, 'test.pid');
    // A read-only folder in the test folder, as a test may leave: it goes too.
    const test = `mkdir -p ro/deep && chmod 500 ro; echo $$ > '${pidFile}.next'; mv '${pidFile}.next' '${pidFile}'; sleep 60`;
    const child = spawn(process.execPath, [cliPath, 'bisect', '--', 'sh', '-c', test], { cwd: root, env: sb.env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let testPid = 0;
    try {
      await waitFor(() => fs.existsSync(pidFile), 20_000, 'the test to start');
      testPid = Number(fs.readFileSync(pidFile, 'utf8'));
      child.kill('SIGKILL');
      await exited;
    } finally {
      child.kill('SIGKILL');
      // The test's group outlives a SIGKILLed rewind: it is this test's to end.
      if (testPid > 0) process.kill(-testPid, 'SIGKILL');
    }
    await waitFor(() => !groupRunning(testPid), 5_000, 'the test to be gone');
    const left = scratchIn(storeRoot);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^scratch-${child.pid}-\\d+-[A-Za-z0-9]{6}$`));
    const list = await rewind(['list'], sb.env, root);
    expect(list.code).toBe(0);
    expect(scratchIn(storeRoot)).toEqual([]);
  });

  it('keeps the folders of live processes (their pid and start time), removes those of a pid now someone else\'s', async () => {
    const { root, storeRoot } = await twoCheckpoints();
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const pid = sleeper.pid ?? 0;
      await waitFor(() => processStartTime(pid) !== undefined, 5_000, 'the sleeper to start');
      const start = processStartTime(pid) ?? '';
      const dead = spawn('true');
      await new Promise((resolve) => dead.on('exit', resolve));
      const names = {
        live: `scratch-${pid}-${start}-aB3dE6`,
        liveOldName: `scratch-${pid}-Zz9yX8`,
        reusedPid: `scratch-${pid}-${Number(start) + 1}-aB3dE6`,
        deadPid: `scratch-${dead.pid}-${start}-aB3dE6`,
        deadOldName: `scratch-${dead.pid}-qQ1wW2`,
        notOurs: 'scratch-notes',
      };
      for (const name of Object.values(names)) fs.mkdirSync(path.join(storeRoot, name, 'work'), { recursive: true });
      expect((await rewind(['list'], sb.env, root)).code).toBe(0);
      expect(scratchIn(storeRoot)).toEqual([names.live, names.liveOldName, names.notOurs].sort());
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
