// Retention never blocks a step: a whole retention pass (the drop, with the chain of fifty
// kept checkpoints rebuilt and their refs moved, then a reclaim where git packs
// a store big enough to take a while) runs while hook-style snapshots fire back to back,
// some of them bringing back files only the dropped checkpoints had (git then refreshes an
// old object instead of writing it: the case a gc without the lock can lose). Each
// snapshot waits under a second for the lock, by its own log line, and every checkpoint,
// those taken meanwhile included, is whole, in one chain, and restores exactly.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { injectInProcess } from '../helpers/inject.js';
import { blobOid, hasObject, shadowGit } from '../helpers/shadow.js';
import { createSandbox, defaultSettings, write, type Sandbox } from '../helpers/tempRepo.js';
import { waitFor } from '../helpers/waitFor.js';

const minute = 60 * 1000;
const day = 24 * 60 * minute;
const start = Date.parse('2026-01-01T00:00:00Z');

let sb: Sandbox;
let clock: number;
let uninject: (() => void) | undefined;
beforeEach(() => {
  sb = createSandbox('rewind-retention-hooks-');
  clock = start;
});
afterEach(async () => {
  uninject?.();
  uninject = undefined;
  await sb.cleanup();
});

function open(dir: string, env: NodeJS.ProcessEnv = sb.env): CheckpointEngine {
  return CheckpointEngine.open({ cwd: dir, settings: defaultSettings, home: sb.store, env, now: () => clock });
}

function withoutGit(print: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(print).filter(([file]) => file !== '.git' && !file.startsWith('.git/')));
}

/**
 * From `firstDay`, a day each: data/ replaced by `files` files of random bytes, checkpointed,
 * then `small` checkpoints a minute apart editing notes.txt. Returns each day's bytes.
 */
async function days(engine: CheckpointEngine, dir: string, firstDay: number, count: number, shape: { files: number; small: number }, kept: Map<number, Record<string, string>>): Promise<Buffer[][]> {
  const written: Buffer[][] = [];
  const checkpoint = async (label: string) => {
    const { record } = await engine.snapshot({ label, backgroundScan: false });
    kept.set(record.id, withoutGit(fingerprint(dir)));
  };
  for (let n = firstDay; n < firstDay + count; n++) {
    clock = start + n * day;
    fs.rmSync(path.join(dir, 'data'), { recursive: true, force: true });
    const bytes = Array.from({ length: shape.files }, () => randomBytes(150 * 1024));
    bytes.forEach((content, index) => write(dir, `data/day${n}-${index}.bin`, content));
    await checkpoint(`day ${n}`);
    for (let edit = 0; edit < shape.small; edit++) {
      clock += minute;
      write(dir, 'notes.txt', `day ${n}, edit ${edit}\n`);
      await checkpoint(`day ${n} edit ${edit}`);
    }
    written.push(bytes);
  }
  return written;
}

interface Step {
  id: number;
  startedAt: number;
  endedAt: number;
  files: Record<string, string>;
}

describe('retention while hooks fire', () => {
  it('a retention pass with a real git pack of the store never makes a hook wait a second, and every checkpoint taken meanwhile is whole and restores exactly', async () => {
    const dir = sb.repo('busy');
    const keeper = open(dir);
    const gitDir = keeper.repo.gitDir;
    const files = new Map<number, Record<string, string>>();
    // Old enough to go: five days git itself packs (the pack a gc must delete), three loose.
    const packed = await days(keeper, dir, 0, 5, { files: 4, small: 0 }, files);
    shadowGit(gitDir, 'gc', '--quiet', '--prune=now');
    const loose = await days(keeper, dir, 5, 3, { files: 4, small: 0 }, files);
    // Kept: sixty loose objects of random bytes, which git's packing compares with each
    // other, and 52 checkpoints whose commits the drop recreates and whose refs it moves.
    await days(keeper, dir, 16, 4, { files: 15, small: 12 }, files);
    const before = keeper.list();
    // What the steps bring back, a different file each (one a later walk of git's may not see
    // reachable): days 0-3 from the old pack, days 5-6 loose; days 4 and 7 never come back.
    const fromPack = packed.slice(0, 4).flat();
    const fromLoose = loose.slice(0, 2).flat();
    const revived = fromPack.flatMap((bytes, index) => [bytes, ...(fromLoose[index] ? [fromLoose[index]] : [])]);
    const untouched = { packed: blobOid(packed[4]![0]!), loose: blobOid(loose[2]![0]!) };

    // The hooks open the project as another process would, with the log every step writes to.
    const logFile = path.join(sb.base, 'rewind.log');
    const hooks = open(dir, { ...sb.env, REWIND_LOG: logFile });
    const seen: Record<string, number> = {};
    uninject = injectInProcess({ at: (seam) => void (seen[seam] ??= performance.now()) });

    clock = start + 22 * day;
    let settled = false;
    const pruning = keeper.prune({ days: 14, maxGb: 5 }).finally(() => (settled = true));
    const steps: Step[] = [];
    for (let n = 0; !settled; n++) {
      // Each step a change: some bring back bytes only a dropped checkpoint held.
      write(dir, 'data/revived.bin', revived[n] ?? randomBytes(1024));
      write(dir, 'step.txt', `step ${n}\n`);
      const startedAt = performance.now();
      const { record, unchanged } = await hooks.snapshot({ trigger: 'PreToolUse:Write', label: `step ${n}`, backgroundScan: false });
      expect(unchanged).toBeFalsy();
      steps.push({ id: record.id, startedAt, endedAt: performance.now(), files: withoutGit(fingerprint(dir)) });
    }
    const result = await pruning;

    expect(result.problem).toBeUndefined();
    expect(result.byAge).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Steps ran while git was packing, not only before or after it.
    await waitFor(() => seen['reclaim:packed'] !== undefined, 1_000, 'the reclaim to have packed');
    const packing = [seen['reclaim:packing'] ?? Infinity, seen['reclaim:packed'] ?? -Infinity] as const;
    expect(steps.filter((step) => step.startedAt > packing[0] && step.endedAt < packing[1]).length).toBeGreaterThanOrEqual(3);
    // Every step's checkpoint came, each after waiting under a second for the lock.
    const waits = fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes(' snapshot trigger=PreToolUse:Write '))
      .map((line) => ({ ok: line.endsWith(' result=ok'), waited: Number(/ waited=(\d+) /.exec(line)?.[1] ?? NaN) }));
    expect(waits).toHaveLength(steps.length);
    for (const wait of waits) {
      expect(wait.ok).toBe(true);
      expect(wait.waited).toBeLessThan(1000);
    }

    // Nothing a checkpoint needs went; what only the dropped ones held (and no step brought back) did.
    expect(shadowGit(gitDir, 'fsck', '--no-dangling')).toBe('');
    expect(hasObject(gitDir, untouched.loose)).toBe(false);
    // One chain: the newest's history is exactly the list, each commit with its checkpoint's tree.
    const listed = keeper.list();
    expect(listed.map((record) => record.id)).toEqual([...before.slice(8).map((record) => record.id), ...steps.map((step) => step.id)]);
    const chain = shadowGit(gitDir, 'log', '--format=%H %T', `refs/checkpoints/${listed.at(-1)!.id}`).trim().split('\n').reverse();
    expect(chain).toEqual(listed.map((record) => `${record.commit} ${record.tree}`));
    for (const record of listed) expect(shadowGit(gitDir, 'rev-parse', `refs/checkpoints/${record.id}`).trim()).toBe(record.commit);
    // Every step restores exactly, and the kept days' big checkpoints and the first and last small ones.
    for (const step of steps) files.set(step.id, step.files);
    const kept = listed.slice(0, -steps.length);
    const sample = [...kept.filter((record) => !record.label.includes(' edit ')), kept[1]!, kept.at(-1)!, ...listed.slice(-steps.length)];
    for (const record of sample) {
      await keeper.restore(record.id);
      expect(withoutGit(fingerprint(dir))).toEqual(files.get(record.id));
    }

    // The old pack the steps refreshed was kept whole this time; the next reclaim takes what it alone holds.
    expect(hasObject(gitDir, untouched.packed)).toBe(true);
    await keeper.prune({ days: 14, maxGb: 5 }, { reclaimAlways: true });
    expect(hasObject(gitDir, untouched.packed)).toBe(false);
    expect(shadowGit(gitDir, 'fsck', '--no-dangling')).toBe('');
    const revivedStep = steps[0]!;
    await keeper.restore(revivedStep.id);
    expect(withoutGit(fingerprint(dir))).toEqual(revivedStep.files);
    // A deadline for a machine under load: the store alone is 60 checkpoints.
  }, 180_000);
});
