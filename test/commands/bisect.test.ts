// `rewind bisect`: the first checkpoint where a test fails, each tested in a scratch folder
// made from the shadow repo; the project and its .git stay byte for byte as they were.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupRunning } from '../../src/os/processAlive.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { commit, linkedWorktree } from '../helpers/repoShapes.js';
import { cliPath } from '../helpers/term.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-bisect-');
});
afterEach(() => sb.cleanup());

/**
 * A project with `states.length` checkpoints: checkpoint i (1-based) has `status` = states[i-1]
 * ('ok' passes the test below) and a step file that changes each time. `.gitignore` leaves
 * node_modules out of checkpoints.
 */
async function scriptedHistory(name: string, states: readonly string[]): Promise<string> {
  const root = sb.repo(name);
  write(root, '.gitignore', 'node_modules/\n');
  write(root, 'node_modules/dep/index.js', 'module.exports = 1;\n');
  const checkpoints = sb.project(root);
  for (const [index, state] of states.entries()) {
    write(root, 'status', `${state}\n`);
    write(root, 'src/step.txt', `step ${index + 1}\n`);
    await checkpoints.snapshot({ label: `Edit step ${index + 1}`, backgroundScan: false });
  }
  return root;
}

const history = (n: number, breaksAt: number) => Array.from({ length: n }, (_, i) => (i + 1 >= breaksAt ? 'broken' : 'ok'));

/** The test: counts its runs in a file outside the project, passes while status says ok. */
function counted(counter: string): string[] {
  return ['--', 'sh', '-c', `echo run >> '${counter}'; grep -q '^ok$' status`];
}

const runs = (counter: string) => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0);

/** Everything of the project (its .git included) and what the store holds besides its own files. */
function scratchLeft(): string[] {
  const history = path.join(sb.store, 'history');
  const stores = fs.existsSync(history) ? fs.readdirSync(history) : [];
  return stores.flatMap((store) => fs.readdirSync(path.join(history, store)).filter((name) => name.startsWith('scratch-') || name.startsWith('staging-')));
}

/** The shadow repo's files but its objects (which git may freshen). */
function shadowFiles(): Record<string, string> {
  const history = path.join(sb.store, 'history');
  const [store] = fs.readdirSync(history);
  const all = fingerprint(path.join(history, store ?? '', 'repo.git'));
  return Object.fromEntries(Object.entries(all).filter(([rel]) => !rel.startsWith('objects')));
}

const tmpScratch = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('rewind-scratch-'));

describe('rewind bisect', () => {
  it('finds the step that broke the test in about log2(n) runs, touching neither the files nor .git', async () => {
    const root = await scriptedHistory('log2', history(32, 21));
    const counter = path.join(sb.base, 'counter');
    const before = fingerprint(root);
    const tmpBefore = tmpScratch();
    const shadowBefore = shadowFiles();
    const result = await rewind(['bisect', ...counted(counter)], sb.env, root);
    expect(result.stderr).not.toMatch(/error/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The first bad checkpoint is #21 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}Edit step 21\n/);
    expect(result.stdout).toContain('  changed since #20: src/step.txt, status\n');
    expect(result.stdout).toContain('  by the step of #20  Edit step 20  (its diff: rewind show 20)\n');
    expect(result.stdout).toContain('Put the files back as they were before it: rewind restore 20\n');
    // Both ends, then a binary search of 31 gaps: 2 + ceil(log2 31) at most.
    expect(runs(counter)).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(31)));
    expect(result.stdout).toContain(`${runs(counter)} test run(s) over checkpoints #1..#32`);
    expect(fingerprint(root)).toEqual(before);
    expect(scratchLeft()).toEqual([]);
    expect(tmpScratch()).toEqual(tmpBefore);
    // The shadow repo's index, HEAD, refs and config are as they were: no worktree, no index of ours left in it.
    expect(shadowFiles()).toEqual(shadowBefore);
  });

  it('--json gives the first bad checkpoint, the one to restore and every run', async () => {
    const root = await scriptedHistory('json', history(8, 3));
    const result = await rewind(['bisect', '--json', ...counted(path.join(sb.base, 'counter'))], sb.env, root);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ mode: 'bisect', firstBad: { id: 3, label: 'Edit step 3', changedPaths: ['src/step.txt', 'status'] }, before: { id: 2 }, restore: 'rewind restore 2', range: { good: 1, bad: 8 }, maybe: [] });
    expect((json.steps as { id: number; verdict: string }[]).slice(0, 2)).toEqual([
      { id: 1, verdict: 'good', code: 0 },
      { id: 8, verdict: 'bad', code: 1 },
    ]);
  });

  it('--scan tests every checkpoint in order: the first break, and the one after a fix', async () => {
    const states = ['ok', 'ok', 'ok', 'broken', 'broken', 'ok', 'ok', 'ok', 'broken', 'broken'];
    const root = await scriptedHistory('scan', states);
    const counter = path.join(sb.base, 'counter');
    const result = await rewind(['bisect', '--scan', ...counted(counter)], sb.env, root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The first bad checkpoint is #4 /);
    expect(result.stdout).toContain('Put the files back as they were before it: rewind restore 3\n');
    expect(result.stdout).toContain('Breaks: #4 (passes again at #6), #9\n');
    expect(runs(counter)).toBe(states.length);
    // A plain bisect of the same history lands on one of the two breaks.
    const plain = await rewind(['bisect', '--json', ...counted(path.join(sb.base, 'counter2'))], sb.env, root);
    expect([4, 9]).toContain((JSON.parse(plain.stdout) as { firstBad: { id: number } }).firstBad.id);
  });

  it('runs without ignored files; --setup prepares each checkpoint, and a failing setup or exit 125 skips it', async () => {
    const root = await scriptedHistory('setup', history(9, 6));
    const test = ['--', 'sh', '-c', 'test -d node_modules || exit 3; grep -q "^ok$" status'];
    // Without a setup node_modules is missing: the good end already fails, and it says so.
    const bare = await rewind(['bisect', ...test], sb.env, root);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('rewind: note: checkpoints hold no ignored files');
    expect(bare.stderr).toMatch(/the test already fails at the good end, checkpoint #1 \(exit 3\)/);

    // The setup fails at #5 (the first midpoint) and the test says skip at #4.
    const setup = 'mkdir -p node_modules && ! grep -q "step 5$" src/step.txt';
    const skipAt4 = ['--', 'sh', '-c', 'grep -q "step 4$" src/step.txt && exit 125; test -d node_modules || exit 3; grep -q "^ok$" status'];
    const result = await rewind(['bisect', '--json', '--setup', setup, ...skipAt4], sb.env, root);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as { firstBad: { id: number }; steps: { id: number; verdict: string; note?: string }[] };
    expect(json.firstBad.id).toBe(6);
    expect(json.steps).toContainEqual({ id: 5, verdict: 'skip', code: 1, note: 'the setup command failed (exit 1)' });
    expect(scratchLeft()).toEqual([]);
  });

  it('says which checkpoints it could not tell apart when skipped ones hide the break', async () => {
    const root = await scriptedHistory('maybe', history(5, 3));
    const skip = ['--', 'sh', '-c', 'grep -q "step [23]$" src/step.txt && exit 125; grep -q "^ok$" status'];
    const result = await rewind(['bisect', ...skip], sb.env, root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The first bad checkpoint is #4, or one of #2, #3 that could not be tested\.\n/);
    expect(result.stdout).toContain('rewind restore 1\n');
  });

  it('a test killed by a signal or exiting above 127 stops it with a clear error, and nothing is left behind', async () => {
    const root = await scriptedHistory('killed', history(6, 4));
    const before = fingerprint(root);
    const killed = await rewind(['bisect', '--', 'sh', '-c', 'grep -q "step 6$" src/step.txt && kill -9 $$; exit 0'], sb.env, root);
    expect(killed.code).toBe(1);
    expect(killed.stderr).toContain('rewind: the test command was killed by SIGKILL at checkpoint #6: bisect stopped');
    const high = await rewind(['bisect', '--', 'sh', '-c', 'exit 130'], sb.env, root);
    expect(high.code).toBe(1);
    expect(high.stderr).toContain('the test command exited with 130 at checkpoint #1');
    expect(fingerprint(root)).toEqual(before);
    expect(scratchLeft()).toEqual([]);
  });

  it('a nested repository is an empty folder in the tests, and it says so', async () => {
    const root = sb.repo('nested');
    const sub = path.join(root, 'vendor', 'lib');
    fs.mkdirSync(sub, { recursive: true });
    sb.git(sub, 'init', '-q', '-b', 'main');
    commit(sb, sub, { 'lib.js': 'nested\n' }, 'lib');
    const checkpoints = sb.project(root);
    for (const state of ['ok', 'broken']) {
      write(root, 'status', `${state}\n`);
      await checkpoints.snapshot({ label: state, backgroundScan: false });
    }
    const test = ['--', 'sh', '-c', 'test -d vendor/lib && ! test -e vendor/lib/lib.js && grep -q "^ok$" status'];
    const result = await rewind(['bisect', ...test], sb.env, root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The first bad checkpoint is #2 /);
    expect(result.stdout).toContain('Nested repositories (vendor/lib) were empty folders in the tests: checkpoints do not hold their files.\n');
  });

  it('bad input is one line saying what to do, non-zero', async () => {
    const empty = sb.repo('empty');
    const none = await rewind(['bisect', '--', 'true'], sb.env, empty);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toMatch(/^rewind: no checkpoints yet in this project: there is nothing to bisect\n$/);

    const root = await scriptedHistory('errors', history(4, 3));
    const cases: [string[], number, RegExp][] = [
      [['bisect'], 2, /missing the test command: put it after --/],
      [['bisect', 'npm', 'test'], 2, /unexpected 'npm': the test command goes after --/],
      [['bisect', '--'], 2, /missing the test command/],
      [['bisect', '--good', '9', '--', 'true'], 1, /there is no checkpoint #9 in this project \(--good\)/],
      [['bisect', '--good', 'x', '--', 'true'], 2, /'x' is not a checkpoint id/],
      [['bisect', '--good', '3', '--bad', '2', '--', 'true'], 1, /--good #3 is newer than --bad #2/],
      [['bisect', '--good', '4', '--', 'true'], 1, /only checkpoint #4 is in range: name an older good one with --good ID/],
      [['bisect', '--', 'true'], 1, /the test passes at the bad end, checkpoint #4: nothing broke between #1 and #4/],
      [['bisect', '--', 'false'], 1, /the test already fails at the good end, checkpoint #1 \(exit 1\)/],
      [['bisect', '--', 'no-such-program-here', 'x'], 1, /the test command could not be started: spawn no-such-program-here ENOENT/],
      [['bisect', '--', 'no-such-program-here'], 1, /fails at the good end, checkpoint #1 \(exit 127\): command not found\?/],
    ];
    for (const [argv, code, message] of cases) {
      const result = await rewind(argv, sb.env, root);
      expect(result.code, argv.join(' ')).toBe(code);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('rewind: ') && !/^rewind: ( |testing|note)/.test(line));
      expect(errors, argv.join(' ')).toHaveLength(1);
      expect(errors[0], argv.join(' ')).toMatch(message);
    }
    expect(scratchLeft()).toEqual([]);
  });
});

describe('rewind bisect, a test that reaches the project by its path', () => {
  it('names what the tests changed in the files (ignored ones too) and in .git, run by run, and claims nothing it did not check', async () => {
    const root = await scriptedHistory('reach', history(8, 5));
    write(root, 'notes.txt', 'mine\n');
    write(root, 'doomed.txt', 'mine too\n');
    // Each test runs in the scratch folder but writes to the project by absolute path; the
    // first one (at the good end) appends, deletes, adds a tag and touches an ignored file.
    const once = path.join(sb.base, 'once');
    const reach = `if ! test -e '${once}'; then touch '${once}'; echo more >> '${root}/notes.txt'; rm '${root}/doomed.txt';`
      + ` git -C '${root}' tag reached; echo 2 > '${root}/node_modules/dep/index.js'; fi; grep -q '^ok$' status`;
    const result = await rewind(['bisect', '--', 'sh', '-c', reach], { ...sb.env, ...sb.gitEnv, REWIND_HOME: sb.store }, root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The first bad checkpoint is #5 /);
    expect(result.stdout).not.toContain('none changed it');
    expect(result.stdout).toContain('in a scratch folder; but your project changed while they ran (a test writing to it by its path, or another program meanwhile):\n');
    expect(result.stdout).toContain('  during the test of #1: changed node_modules/dep/index.js, notes.txt; removed doomed.txt; added .git/refs/tags/reached\n');
    expect(result.stdout.match(/during the test of/g)).toHaveLength(1);
    expect(result.stderr).toContain('rewind: warning: your project changed during the test of #1: changed node_modules/dep/index.js, notes.txt; removed doomed.txt; added .git/refs/tags/reached\n');

    const json = await rewind(['bisect', '--json', '--', 'sh', '-c', `echo again >> '${root}/notes.txt'; grep -q '^ok$' status`], sb.env, root);
    const parsed = JSON.parse(json.stdout) as { projectChanges: unknown[]; notChecked: string[]; steps: { id: number }[] };
    // Every run appended: each is named, by the checkpoint it tested.
    expect(parsed.projectChanges).toEqual(parsed.steps.map((step) => ({ id: step.id, added: [], removed: [], changed: ['notes.txt'] })));
    expect(parsed.notChecked).toEqual([]);
  });

  it('a test that changes nothing gets the exact claim; one that stops bisect still has its changes named', async () => {
    const root = await scriptedHistory('quiet', history(4, 3));
    const clean = await rewind(['bisect', '--', 'sh', '-c', "cat '" + root + "/status' > /dev/null; grep -q '^ok$' status"], sb.env, root);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/\d test run\(s\) over checkpoints #1\.\.#4, in a scratch folder; your project \(its files, ignored ones and \.git included\) was checked after each test: none changed it\.\n/);
    expect(clean.stderr).not.toContain('warning');

    // The good end already fails: an error, but what its run did to the project is said.
    const failing = await rewind(['bisect', '--', 'sh', '-c', `mkdir -p '${root}/made/deep' && touch '${root}/made/deep/x'; exit 1`], sb.env, root);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('rewind: warning: your project changed during the test of #1: added made\n');
    expect(failing.stderr).toMatch(/the test already fails at the good end/);
  });

  it('a linked worktree: its git dirs outside the project are checked too', async () => {
    const { worktree, main } = linkedWorktree(sb);
    const checkpoints = sb.project(worktree);
    for (const state of ['ok', 'broken']) {
      write(worktree, 'status', `${state}\n`);
      await checkpoints.snapshot({ label: state, backgroundScan: false });
    }
    const commonDir = fs.realpathSync(path.join(main, '.git'));
    const test = `git -C '${worktree}' tag -f from-test >/dev/null; grep -q '^ok$' status`;
    const result = await rewind(['bisect', '--', 'sh', '-c', test], { ...sb.env, ...sb.gitEnv, REWIND_HOME: sb.store }, worktree);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  during the test of #1: added ${commonDir}/refs/tags/from-test\n`);
  });
});

describe('rewind bisect, stopped', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s (Ctrl-C) on rewind mid-test stops the test and everything it started, and removes the scratch folder', async (signal, code) => {
    const root = await scriptedHistory('signal', history(6, 4));
    const before = fingerprint(root);
    const tmp = sb.folder('tmp');
    const pidFile = path.join(sb.base, 'test.pid');
    // The test starts a background sleep (same group) and waits: rewind gets SIGINT then.
    const test = `sleep 60 & echo $$ > '${pidFile}.next'; mv '${pidFile}.next' '${pidFile}'; wait`;
    const child = spawn(process.execPath, [cliPath, 'bisect', '--', 'sh', '-c', test], { cwd: root, env: { ...sb.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(() => fs.existsSync(pidFile), 20_000, 'the test to start');
      const testPid = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(scratchLeft()).toHaveLength(1);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr).toContain(`rewind: bisect stopped by ${signal}: the test was stopped and its scratch folder removed`);
      await waitFor(() => !groupRunning(testPid), 5_000, 'the test and its sleep to be gone');
    } finally {
      child.kill('SIGKILL');
    }
    expect(scratchLeft()).toEqual([]);
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(fingerprint(root)).toEqual(before);
  });
});
