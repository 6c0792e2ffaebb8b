// `rewind checkpoints`, `rewind prune`, `rewind clean`, and retention applied when a command
// opens the project, with the clock moved by the test (REWIND_TEST_NOW).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/fingerprint.js';
import { rewind } from '../helpers/io.js';
import { seamsEnv } from '../helpers/restoreKit.js';
import { createSandbox, write, type Sandbox } from '../helpers/tempRepo.js';

let sb: Sandbox;
beforeEach(() => {
  sb = createSandbox('rewind-cmd-retention-');
});
afterEach(() => sb.cleanup());

const at = (day: number) => seamsEnv({ REWIND_TEST_NOW: new Date(Date.parse('2026-03-01T12:00:00Z') + day * 86_400_000).toISOString() });

/** A checkpoint on `day` (by the moved clock), with a file of its own. */
async function checkpointOn(dir: string, day: number): Promise<number> {
  fs.rmSync(path.join(dir, 'data'), { recursive: true, force: true });
  write(dir, `data/day${day}.bin`, randomBytes(32 * 1024));
  const result = await rewind(['snapshot', '--label', `day ${day}`, '--json'], { ...sb.env, ...at(day) }, dir);
  expect(result).toMatchObject({ code: 0 });
  return (JSON.parse(result.stdout) as { id: number }).id;
}

async function listLabels(dir: string, day: number): Promise<{ labels: string[]; stderr: string }> {
  const result = await rewind(['list', '--json'], { ...sb.env, ...at(day) }, dir);
  expect(result.code).toBe(0);
  return { labels: (JSON.parse(result.stdout) as { label: string }[]).map((row) => row.label), stderr: result.stderr };
}

function du(dir: string): number {
  return Number(execFileSync('du', ['-sB1', dir], { encoding: 'utf8' }).split('\t')[0]);
}

describe('retention from the command line', () => {
  it('a command that opens the project drops what is older than checkpoint_retention_days and says so once; a snapshot never does', async () => {
    const dir = sb.repo('open');
    for (const day of [0, 1, 2, 20]) await checkpointOn(dir, day);
    // A snapshot is the hot path: it drops nothing, however old the rest is.
    await checkpointOn(dir, 21);
    const first = await listLabels(dir, 22);
    expect(first.labels).toEqual(['day 20', 'day 21']);
    expect(first.stderr).toMatch(/^rewind: retention: dropped 3 checkpoint\(s\) older than 14 day\(s\); freed \d/);
    const again = await listLabels(dir, 22);
    expect(again).toEqual({ labels: ['day 20', 'day 21'], stderr: '' });
  });

  it('rewind prune --dry-run changes nothing; rewind prune drops, frees, and every checkpoint left restores exactly', async () => {
    const dir = sb.repo('prune');
    const files = new Map<number, Record<string, string>>();
    for (const day of [0, 1, 2, 3, 10, 11]) {
      const id = await checkpointOn(dir, day);
      files.set(id, fingerprint(path.join(dir, 'data')));
    }
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), JSON.stringify({ checkpoint_retention_days: 5 }));
    const store = JSON.parse((await rewind(['checkpoints', '--json'], { ...sb.env, ...at(0) }, dir)).stdout) as { store: string };
    const before = fingerprint(store.store);

    const dry = await rewind(['prune', '--dry-run'], { ...sb.env, ...at(12) }, dir);
    expect(dry).toMatchObject({ code: 0 });
    expect(dry.stdout).toContain('would drop 4 checkpoint(s) older than 5 day(s)');
    expect(dry.stdout).toContain('would go: #1 #2 #3 #4');
    expect(fingerprint(store.store)).toEqual(before);

    const bytesBefore = du(store.store);
    const real = await rewind(['prune', '--json'], { ...sb.env, ...at(12) }, dir);
    expect(real.code).toBe(0);
    const result = JSON.parse(real.stdout) as { byAge: number[]; bySize: number[]; bytesBefore: number; bytesAfter: number };
    expect(result.byAge).toEqual([1, 2, 3, 4]);
    // Measured while retention holds the shadow's gc lock: gc.pid and the reclaiming file (a block each) are counted then.
    expect(Math.abs(result.bytesBefore - bytesBefore)).toBeLessThanOrEqual(8192);
    expect(Math.abs(result.bytesAfter - du(store.store))).toBeLessThanOrEqual(8192);
    expect(result.bytesAfter).toBeLessThan(result.bytesBefore);
    for (const id of [5, 6]) {
      expect(await rewind(['restore', String(id), '--yes'], { ...sb.env, ...at(12) }, dir)).toMatchObject({ code: 0 });
      expect(fingerprint(path.join(dir, 'data'))).toEqual(files.get(id));
    }
    expect(await rewind(['restore', '2', '--yes'], { ...sb.env, ...at(12) }, dir)).toMatchObject({ code: 1, stderr: expect.stringMatching(/no checkpoint #2/) });
  });

  it('a drop whose space cannot be reclaimed stands and says so (prune exits 1); the next prune reclaims it', async () => {
    const dir = sb.repo('no-gc');
    for (const day of [0, 1, 2, 20]) await checkpointOn(dir, day);
    // git itself, but for the reclaim's packing (applyRetention's gc), which fails as a full disk would make it.
    const bin = path.join(sb.base, 'bin');
    fs.mkdirSync(bin);
    const git = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nfor arg in "$@"; do [ "$arg" = pack-objects ] && { echo 'fatal: No space left on device' >&2; exit 128; }; done\nexec '${git}' "$@"\n`, { mode: 0o755 });
    const noGc = { ...sb.env, ...at(22), PATH: `${bin}:${sb.env.PATH ?? ''}` };

    const pruned = await rewind(['prune'], noGc, dir);
    expect(pruned.code).toBe(1);
    expect(pruned.stdout).toMatch(/^dropped 3 checkpoint\(s\) older than 14 day\(s\); freed .*; the space of the dropped checkpoints was not reclaimed \(.*No space left on device.*\): `rewind prune` tries again$/m);
    expect((await listLabels(dir, 22)).labels).toEqual(['day 20']);

    const again = await rewind(['prune', '--json'], { ...sb.env, ...at(22) }, dir);
    expect(again.code).toBe(0);
    const result = JSON.parse(again.stdout) as { byAge: number[]; bytesBefore: number; bytesAfter: number; problem?: string };
    expect(result).toMatchObject({ byAge: [] });
    expect(result.problem).toBeUndefined();
    expect(result.bytesAfter).toBeLessThan(result.bytesBefore - 3 * 32 * 1024);
  });

  it('rewind checkpoints: counts, bytes as du, the oldest and newest, retention in force and what it drops next, orphans', async () => {
    const dir = sb.repo('report');
    const gone = sb.repo('gone');
    await checkpointOn(dir, 0);
    await checkpointOn(dir, 3);
    await checkpointOn(gone, 0);
    fs.rmSync(gone, { recursive: true, force: true });
    const result = await rewind(['checkpoints', '--json'], { ...sb.env, ...at(4) }, dir);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(result.stdout) as Record<string, unknown> & { store: string; projects: { project: string; bytes: number; exists: boolean }[]; orphans: { project: string }[] };
    expect(Object.keys(report).sort()).toEqual(['allBytes', 'checkpoints', 'newest', 'oldest', 'orphans', 'project', 'projectBytes', 'projects', 'retention', 'store'].sort());
    expect(report).toMatchObject({ project: dir, checkpoints: 2, oldest: { id: 1 }, newest: { id: 2 }, retention: { days: 14, maxGb: 5, dueNow: 0, overCap: false } });
    expect(report.projectBytes).toBe(du(report.store));
    expect(report.allBytes).toBe(du(path.join(sb.store, 'history')) - fs.lstatSync(path.join(sb.store, 'history')).blocks * 512);
    expect(report.orphans.map((entry) => entry.project)).toEqual([gone]);
    expect((report.retention as { nextAt: string }).nextAt).toBe(new Date(Date.parse(at(14).REWIND_TEST_NOW)).toISOString());

    const human = await rewind(['checkpoints'], { ...sb.env, ...at(4) }, dir);
    expect(human.stdout).toContain(`2 checkpoint(s) for ${dir}`);
    expect(human.stdout).toContain('Retention: checkpoint_retention_days 14, checkpoint_max_gb 5');
    expect(human.stdout).toContain('rewind clean --orphans');
  });

  it('rewind clean: --orphans deletes only stores of vanished projects, --project this one, after saying how much; nothing without --yes and a terminal', async () => {
    const kept = sb.repo('kept');
    const gone = sb.repo('gone');
    await checkpointOn(kept, 0);
    await checkpointOn(gone, 0);
    const keptFiles = fingerprint(kept);
    fs.rmSync(gone, { recursive: true, force: true });
    expect(await rewind(['clean'], sb.env, kept)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--orphans, --project or --all/) });
    const refused = await rewind(['clean', '--orphans'], sb.env, kept);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/pass --yes/) });
    expect(fs.readdirSync(path.join(sb.store, 'history'))).toHaveLength(2);

    const orphans = await rewind(['clean', '--orphans', '--yes'], sb.env, kept);
    expect(orphans.code).toBe(0);
    expect(orphans.stdout).toMatch(/gone \(gone\)/);
    expect(orphans.stdout).toMatch(/deleted 1 store\(s\), freed \d/);
    expect(fs.readdirSync(path.join(sb.store, 'history'))).toHaveLength(1);

    expect(await rewind(['clean', '--project', '--yes'], sb.env, kept)).toMatchObject({ code: 0 });
    expect(fs.readdirSync(path.join(sb.store, 'history'))).toHaveLength(0);
    expect(fingerprint(kept)).toEqual(keptFiles);
    expect(await rewind(['clean', '--all', '--yes'], sb.env, kept)).toMatchObject({ code: 0, stdout: expect.stringMatching(/nothing to delete/) });
  });

  it('a command keeps the checkpoint it is asked about, however old: rewind restore <old id> restores it', async () => {
    const dir = sb.repo('keep-asked');
    const first = await checkpointOn(dir, 0);
    const files = fingerprint(path.join(dir, 'data'));
    await checkpointOn(dir, 1);
    await checkpointOn(dir, 30);
    const restored = await rewind(['restore', String(first), '--yes'], { ...sb.env, ...at(31) }, dir);
    expect(restored).toMatchObject({ code: 0, stderr: expect.stringMatching(/dropped 1 checkpoint/) });
    expect(fingerprint(path.join(dir, 'data'))).toEqual(files);
  });

  it('rewind prune where there are no checkpoints makes no store', async () => {
    const dir = sb.repo('none');
    expect(await rewind(['prune'], sb.env, dir)).toMatchObject({ code: 0 });
    expect(fs.existsSync(path.join(sb.store, 'history'))).toBe(false);
  });

  it('a project whose store is in a later slot (a hash shared with another) still finds it after the first slot is cleaned', async () => {
    const dir = sb.repo('slot');
    await checkpointOn(dir, 0);
    const [name] = fs.readdirSync(path.join(sb.store, 'history'));
    fs.renameSync(path.join(sb.store, 'history', name!), path.join(sb.store, 'history', `${name}-2`));
    expect((await listLabels(dir, 0)).labels).toEqual(['day 0']);
    expect(fs.readdirSync(path.join(sb.store, 'history'))).toEqual([`${name}-2`]);
  });

  it('checkpointing_disabled: rewind snapshot takes none', async () => {
    const dir = sb.repo('disabled');
    fs.writeFileSync(path.join(sb.configDir, 'config.json'), JSON.stringify({ checkpointing_disabled: true }));
    const result = await rewind(['snapshot'], sb.env, dir);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/checkpointing is disabled/) });
    expect(fs.existsSync(path.join(sb.store, 'history'))).toBe(false);
  });
});
