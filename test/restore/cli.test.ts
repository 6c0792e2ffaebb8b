// `rewind restore` and `rewind redo` on the command line: the plan, confirmation, --only,
// --dry-run, --json, the redo stack, and the errors. In-process CLI dispatch, real git.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { collector, rewind } from '../helpers/io.js';
import { actualTree, expectedTree } from '../helpers/shadow.js';
import { projectState, redoRefs, restoreJson, restoreLeftovers, snapshotId, stamps, type State } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-restore-cli-');
});
afterEach(async () => {
  await sb.cleanup();
});

const snap = (root: string, label?: string) => snapshotId(rewind, sb.env, root, label);
const restore = (root: string, id: number, extra: string[] = []) => restoreJson(rewind, sb.env, root, id, extra);

/** Everything a command could change: the project (bytes, modes, mtimes, inodes), the checkpoint list, the redo stack, leftovers. */
function everything(root: string) {
  const checkpoints = sb.open(root);
  return {
    files: projectState(root),
    stamps: stamps(root),
    checkpoints: checkpoints.list().map((record) => record.id),
    redo: checkpoints.initialized ? redoRefs(checkpoints.repo.gitDir) : [],
    leftovers: restoreLeftovers(checkpoints.store.root, root),
  };
}

/** A project at checkpoint #1 (A), then edited (B), returning both states. */
async function twoStates(name: string): Promise<{ root: string; id: number; stateA: State; stateB: State }> {
  const root = sb.repo(name);
  write(root, 'a.txt', 'a1\n');
  write(root, 'b.txt', 'b1\n');
  write(root, 'keep.txt', 'keep\n');
  const stateA = projectState(root);
  const id = await snap(root, 'A');
  write(root, 'a.txt', 'a2\n');
  fs.rmSync(path.join(root, 'b.txt'));
  write(root, 'c/new.txt', 'new\n');
  return { root, id, stateA, stateB: projectState(root) };
}

function oneLine(text: string): string {
  const lines = text.split('\n');
  expect(lines.at(-1)).toBe('');
  expect(lines, text).toHaveLength(2);
  return lines[0] ?? '';
}

describe('rewind restore', () => {
  it('--json prints exactly checkpoint, changed, deleted, redo; redo is a checkpoint holding the files as they were', async () => {
    const { root, id, stateA } = await twoStates('json');
    const before = expectedTree(root);
    const result = await rewind(['restore', String(id), '--files', '--yes', '--json'], sb.env, root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const json = JSON.parse(oneLine(result.stdout)) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['changed', 'checkpoint', 'deleted', 'redo']);
    expect(json.checkpoint).toBe(id);
    expect([...(json.changed as string[])].sort()).toEqual(['a.txt', 'b.txt']);
    expect(json.deleted).toEqual(['c/new.txt']);
    expect(typeof json.redo).toBe('number');
    expect(projectState(root)).toEqual(stateA);
    const checkpoints = sb.open(root);
    const redoPoint = checkpoints.get(json.redo as number);
    expect(actualTree(checkpoints.repo.gitDir, redoPoint.tree)).toEqual(before);
    expect(redoRefs(checkpoints.repo.gitDir)).toHaveLength(1);
    expect(restoreLeftovers(checkpoints.store.root, root)).toEqual([]);
  });

  it('--only restores just that file, then just that folder (its new files deleted), from a subfolder too', async () => {
    const root = sb.repo('only');
    write(root, 'top.txt', 'top1\n');
    write(root, 'src/x.ts', 'x1\n');
    write(root, 'src/y.ts', 'y1\n');
    write(root, 'docs/readme.md', 'docs1\n');
    const stateA = projectState(root);
    const id = await snap(root, 'A');
    write(root, 'top.txt', 'top2\n');
    write(root, 'src/x.ts', 'x2\n');
    fs.rmSync(path.join(root, 'src/y.ts'));
    write(root, 'src/new.ts', 'new\n');
    write(root, 'docs/readme.md', 'docs2\n');
    const stateB = projectState(root);

    const file = await restore(root, id, ['--only', 'top.txt']);
    expect(file).toMatchObject({ checkpoint: id, changed: ['top.txt'], deleted: [] });
    expect(projectState(root)).toEqual({ ...stateB, 'top.txt': stateA['top.txt'] });

    const folder = await restore(root, id, ['--only', 'src']);
    expect([...folder.changed].sort()).toEqual(['src/x.ts', 'src/y.ts']);
    expect(folder.deleted).toEqual(['src/new.ts']);
    const expected: State = { ...stateB, 'top.txt': stateA['top.txt'] ?? '', 'src/x.ts': stateA['src/x.ts'] ?? '', 'src/y.ts': stateA['src/y.ts'] ?? '' };
    delete expected['src/new.ts'];
    expect(projectState(root)).toEqual(expected);

    // Paths are relative to where the command runs.
    const fromDocs = await restore(path.join(root, 'docs'), id, ['--only', 'readme.md']);
    expect(fromDocs.changed).toEqual(['docs/readme.md']);
    expect(projectState(root)).toEqual(stateA);
  });

  it('--dry-run prints the plan, flags the files edited after the newest checkpoint, and changes nothing', async () => {
    const root = sb.repo('dry-run');
    write(root, 'a.txt', 'a1\n');
    write(root, 'b.txt', 'b1\n');
    write(root, 'gone.txt', 'gone at the newest\n');
    const id = await snap(root, 'A');
    write(root, 'b.txt', 'b2, checkpointed\n');
    fs.rmSync(path.join(root, 'gone.txt'));
    await snap(root, 'B');
    write(root, 'a.txt', 'a3, by hand after the newest checkpoint\n');
    write(root, 'z.txt', 'z, new after the newest checkpoint\n');
    const before = everything(root);

    const result = await rewind(['restore', String(id), '--dry-run'], sb.env, root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(everything(root)).toEqual(before);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`checkpoint #${id}\\b.*4 file`));
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^\s+write\s+a\.txt$/), expect.stringMatching(/^\s+write\s+b\.txt$/), expect.stringMatching(/^\s+create\s+gone\.txt$/), expect.stringMatching(/^\s+delete\s+z\.txt$/)]));
    const flag = lines.filter((line) => /after the newest checkpoint/.test(line));
    expect(flag).toHaveLength(1);
    expect(flag[0]).toContain('a.txt');
    expect(flag[0]).toContain('z.txt');
    expect(flag[0]).not.toContain('b.txt');
    expect(flag[0]).toContain('rewind redo');
  });

  it('without a terminal and without --yes: prints the plan, exits 1 saying to pass --yes, changes nothing', async () => {
    const { root, id } = await twoStates('no-tty');
    const before = everything(root);
    const result = await rewind(['restore', String(id)], sb.env, root);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\s+write\s+a\.txt$/m);
    expect(result.stdout).toMatch(/^\s+delete\s+c\/new\.txt$/m);
    expect(oneLine(result.stderr)).toMatch(/--yes/);
    expect(everything(root)).toEqual(before);
  });

  it('in a terminal without --yes: shows the plan and asks; "n" changes nothing, "y" restores', async () => {
    const { root, id, stateA } = await twoStates('tty');
    const ask = async (answer: string) => {
      const out = collector();
      const err = collector();
      const stdin = Object.assign(Readable.from([answer]), { isTTY: true });
      const code = await run(['restore', String(id)], { stdout: out.stream, stderr: err.stream, stdin, env: sb.env, cwd: root });
      return { code, stdout: out.text(), stderr: err.text() };
    };
    const before = everything(root);
    const no = await ask('n\n');
    expect(no.stdout).toMatch(/^\s+write\s+a\.txt$/m);
    expect(no.stdout).toMatch(new RegExp(`Restore checkpoint #${id}\\?`));
    expect(no.code).toBe(1);
    expect(no.stderr).toMatch(/nothing was changed/);
    expect(everything(root)).toEqual(before);

    const yes = await ask('y\n');
    expect(yes.stderr).toBe('');
    expect(yes.code).toBe(0);
    expect(projectState(root)).toEqual(stateA);
  });

  it('an unknown checkpoint id exits 1 with a pointer to `rewind list`, changing nothing', async () => {
    const { root } = await twoStates('unknown');
    const before = everything(root);
    const result = await rewind(['restore', '99', '--yes'], sb.env, root);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/#99.*rewind list/);
    expect(everything(root)).toEqual(before);
  });

  it.each([['--conversation'], ['--both']])('%s on the command line is a clear one-line error, changing nothing', async (flag) => {
    const { root, id } = await twoStates('conversation');
    const before = everything(root);
    const result = await rewind(['restore', String(id), flag, '--yes'], sb.env, root);
    expect(result.code).not.toBe(0);
    expect(oneLine(result.stderr)).toMatch(/conversation.*--files/);
    expect(everything(root)).toEqual(before);
  });

  it('the plan names the oversize files it leaves alone, even when the checkpoint predates them', async () => {
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), JSON.stringify({ checkpoint_max_file_mb: 0.001 }));
    const root = sb.repo('plan-skipped');
    write(root, 'a.txt', 'a1\n');
    const id = await snap(root, 'A');
    write(root, 'a.txt', 'a2\n');
    write(root, 'big.bin', Buffer.alloc(5000, 'b'));
    await snap(root, 'B');
    const result = await rewind(['restore', String(id), '--dry-run'], sb.env, root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\s+write\s+a\.txt$/m);
    expect(result.stdout, 'big.bin is on disk, left out of checkpoints, and not affected: the plan should say so').toMatch(/big\.bin/);
  });

  it('restore --yes warns that the oversize files left out of checkpoints are unaffected', async () => {
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), JSON.stringify({ checkpoint_max_file_mb: 0.001 }));
    const root = sb.repo('yes-skipped');
    write(root, 'a.txt', 'a1\n');
    write(root, 'big.bin', Buffer.alloc(5000, 'b'));
    const id = await snap(root, 'A');
    expect(sb.open(root).get(id).skipped.map((file) => file.path)).toEqual(['big.bin']);
    write(root, 'a.txt', 'a2\n');
    const result = await rewind(['restore', String(id), '--yes'], sb.env, root);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a1\n');
    expect(result.stdout, 'the restore should say big.bin (left out for its size) is unaffected').toMatch(/big\.bin/);
  });

  it('after a restore, the plan does not flag files a checkpoint holds as edited after the newest checkpoint', async () => {
    const root = sb.repo('flag-after-restore');
    write(root, 'a.txt', 'a1\n');
    const first = await snap(root, 'A');
    write(root, 'a.txt', 'a2\n');
    const second = await snap(root, 'B');
    await restore(root, first);
    // a.txt now holds a1, exactly what checkpoint #first holds: nothing here is unsaved work.
    const result = await rewind(['restore', String(second), '--dry-run'], sb.env, root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\s+write\s+a\.txt$/m);
    expect(result.stdout).not.toMatch(/after the newest checkpoint/);
  });
});

describe('rewind redo', () => {
  it('undoes the last restore; repeated, it walks back two restores; then there is nothing left to undo', async () => {
    const root = sb.repo('walk');
    write(root, 'f.txt', 'one\n');
    const one = await snap(root, '1');
    write(root, 'f.txt', 'two\n');
    write(root, 'two.txt', 'only in two\n');
    const two = await snap(root, '2');
    write(root, 'f.txt', 'three, never checkpointed\n');
    fs.rmSync(path.join(root, 'two.txt'));
    const s0 = projectState(root);

    await restore(root, one);
    const s1 = projectState(root);
    await restore(root, two);
    const s2 = projectState(root);
    expect(new Set([JSON.stringify(s0), JSON.stringify(s1), JSON.stringify(s2)]).size).toBe(3);
    expect(redoRefs(sb.open(root).repo.gitDir)).toHaveLength(2);

    const first = await rewind(['redo', '--yes'], sb.env, root);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(projectState(root)).toEqual(s1);
    const second = await rewind(['redo', '--yes'], sb.env, root);
    expect(second.code).toBe(0);
    expect(projectState(root)).toEqual(s0);
    expect(redoRefs(sb.open(root).repo.gitDir)).toEqual([]);

    const before = everything(root);
    const none = await rewind(['redo', '--yes'], sb.env, root);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(oneLine(none.stderr)).toMatch(/nothing to undo/);
    expect(everything(root).files).toEqual(before.files);
    expect(everything(root).redo).toEqual(before.redo);
  });

  it('with no restore ever made: exit 1, one clear line', async () => {
    const root = sb.repo('never');
    await snap(root, 'A');
    const result = await rewind(['redo', '--yes'], sb.env, root);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^rewind: nothing to undo/);
  });

  it('a redo is undone by `rewind restore <the id it printed>`', async () => {
    const { root, id, stateA, stateB } = await twoStates('undo-redo');
    await restore(root, id);
    expect(projectState(root)).toEqual(stateA);
    const undone = await rewind(['redo', '--yes'], sb.env, root);
    expect(undone.code).toBe(0);
    expect(projectState(root)).toEqual(stateB);
    const printed = /rewind restore (\d+)/.exec(undone.stdout);
    expect(printed, undone.stdout).not.toBeNull();
    await restore(root, Number(printed?.[1]));
    expect(projectState(root)).toEqual(stateA);
  });

  it('--json names the checkpoint restored and the one holding the files as they were before the redo', async () => {
    const { root, id, stateA, stateB } = await twoStates('redo-json');
    const restored = await restore(root, id);
    const result = await rewind(['redo', '--yes', '--json'], sb.env, root);
    expect(result.code).toBe(0);
    const json = JSON.parse(oneLine(result.stdout)) as { checkpoint: number; changed: string[]; deleted: string[]; redo: number; changedSince: string[] };
    expect(Object.keys(json).sort()).toEqual(['changed', 'changedSince', 'checkpoint', 'deleted', 'redo']);
    expect(json.changedSince).toEqual([]);
    expect(json.checkpoint).toBe(restored.redo);
    expect([...json.changed].sort()).toEqual(['a.txt', 'c/new.txt']);
    expect(json.deleted).toEqual(['b.txt']);
    expect(projectState(root)).toEqual(stateB);
    await restore(root, json.redo);
    expect(projectState(root)).toEqual(stateA);
  });

  it('says which files changed since the restore it undoes: it takes those changes back too (plan, result, --json)', async () => {
    const { root, id, stateB } = await twoStates('redo-since');
    await restore(root, id);
    write(root, 'later.txt', 'written after the restore\n');
    const dry = await rewind(['redo', '--dry-run'], sb.env, root);
    expect(dry.stdout).toContain('  ! changed since that restore, taken back too: later.txt\n');
    const dryJson = JSON.parse(oneLine((await rewind(['redo', '--dry-run', '--json'], sb.env, root)).stdout)) as { changedSince: string[] };
    expect(dryJson.changedSince).toEqual(['later.txt']);
    const done = await rewind(['redo', '--yes'], sb.env, root);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('  ! changed since that restore, taken back too: later.txt\n');
    expect(projectState(root)).toEqual(stateB);
  });

  it('the checkpoints restore and redo take first carry REWIND_SESSION and REWIND_AGENT, as `rewind snapshot` does', async () => {
    const { root, id } = await twoStates('session');
    const env = { ...sb.env, REWIND_SESSION: '2026-12-01-abc123', REWIND_AGENT: 'claude' };
    const restored = await rewind(['restore', String(id), '--yes'], env, root);
    expect(restored.code, restored.stderr).toBe(0);
    expect(sb.open(root).list().at(-1)).toMatchObject({ trigger: 'restore', session: '2026-12-01-abc123', agent: 'claude' });
    const undone = await rewind(['redo', '--yes'], env, root);
    expect(undone.code, undone.stderr).toBe(0);
    expect(sb.open(root).list().at(-1)).toMatchObject({ trigger: 'redo', session: '2026-12-01-abc123', agent: 'claude' });
  });

  it('shows which restore it undoes, when, where it goes back to and every file, and asks; without a terminal and without --yes it stops there', async () => {
    const root = sb.repo('redo-plan');
    write(root, 'f.txt', 'one\n');
    const one = await snap(root, '1');
    write(root, 'f.txt', 'two\n');
    for (let i = 0; i < 17; i++) write(root, `many/${i}.txt`, `${i}\n`);
    const two = await snap(root, '2');
    const older = await restore(root, one);
    const newer = await restore(root, two);
    await rewind(['redo', '--yes'], sb.env, root);
    // Running it again would undo the older restore (of #one, 17 files): it says so first.
    const before = everything(root);
    const stopped = await rewind(['redo'], sb.env, root);
    expect(stopped.code).toBe(1);
    expect(oneLine(stopped.stderr)).toMatch(/not undoing: there is no terminal.*--yes/);
    const lines = stopped.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Undoing the restore of checkpoint #${one} \\(made \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\): back to checkpoint #${older.redo}\\b`));
    expect(lines[1]).toMatch(new RegExp(`#${older.redo} changes 18 file\\(s\\):`));
    expect(lines.filter((line) => /^\s+create\s+many\//.test(line))).toHaveLength(17);
    expect(everything(root)).toEqual(before);
    expect(newer.redo).not.toBe(older.redo);

    const dry = await rewind(['redo', '--dry-run'], sb.env, root);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(stopped.stdout);
    const json = await rewind(['redo', '--dry-run', '--json'], sb.env, root);
    expect(JSON.parse(oneLine(json.stdout))).toMatchObject({ undoes: { restored: one, interrupted: false }, back: older.redo, dryRun: true });
    expect(everything(root)).toEqual(before);
  });

  it('in a terminal without --yes: "n" changes nothing, "y" undoes', async () => {
    const { root, id, stateA, stateB } = await twoStates('redo-tty');
    await restore(root, id);
    expect(projectState(root)).toEqual(stateA);
    const ask = async (answer: string) => {
      const out = collector();
      const err = collector();
      const stdin = Object.assign(Readable.from([answer]), { isTTY: true });
      const code = await run(['redo'], { stdout: out.stream, stderr: err.stream, stdin, env: sb.env, cwd: root });
      return { code, stdout: out.text(), stderr: err.text() };
    };
    const before = everything(root);
    const no = await ask('n\n');
    expect(no.stdout).toMatch(new RegExp(`Undo the restore of #${id} \\(back to #\\d+\\)\\? \\[y/N\\]`));
    expect(no.code).toBe(1);
    expect(no.stderr).toMatch(/nothing was changed/);
    expect(everything(root)).toEqual(before);
    const yes = await ask('y\n');
    expect(yes.code, yes.stderr).toBe(0);
    expect(projectState(root)).toEqual(stateB);
  });
});

