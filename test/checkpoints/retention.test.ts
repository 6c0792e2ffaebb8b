// Retention on a real store with a clock the test moves: by age, by size, the redo stack's
// last hour, dry runs, and what is left still restoring exactly as one history.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import { diskUsage } from '../../src/checkpoints/store/diskUsage.js';
import type { ProjectCheckpoints } from '../../src/checkpoints/projectCheckpoints.js';
import { applyRechain, dropFromList, rechainKept, reconcileSome } from '../../src/checkpoints/retention/pruneStore.js';
import { listStores, removeStore } from '../../src/checkpoints/retention/storeCatalog.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { hasObject, shadowGit } from '../helpers/shadow.js';
import { commitOnFeatureBranch, dropFeatureBranch } from '../helpers/repoShapes.js';
import { createSandbox, defaultSettings, write, type Sandbox } from '../helpers/tempRepo.js';

const day = 24 * 60 * 60 * 1000;
const start = Date.parse('2026-01-01T00:00:00Z');

let sb: Sandbox;
let clock: number;
beforeEach(() => {
  sb = createSandbox('rewind-retention-');
  clock = start;
});
afterEach(() => sb.cleanup());

function open(dir: string): { engine: CheckpointEngine; checkpoints: ProjectCheckpoints } {
  const engine = CheckpointEngine.open({ cwd: dir, settings: defaultSettings, home: sb.store, env: sb.env, now: () => clock });
  return { engine, checkpoints: engine };
}

/** `count` checkpoints, one a day from `firstDay`, each adding a file of random bytes (its own objects) and changing notes.txt. */
async function history(dir: string, firstDay: number, count: number, kept: Map<number, Record<string, string>>): Promise<void> {
  const { checkpoints } = open(dir);
  for (let n = 0; n < count; n++) {
    clock = start + (firstDay + n) * day;
    fs.rmSync(path.join(dir, 'data'), { recursive: true, force: true });
    write(dir, `data/day${firstDay + n}.bin`, randomBytes(64 * 1024));
    write(dir, 'notes.txt', `day ${firstDay + n}\n`);
    const { record } = await checkpoints.snapshot({ label: `day ${firstDay + n}`, backgroundScan: false });
    kept.set(record.id, withoutGit(fingerprint(dir)));
  }
}

function withoutGit(print: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(print).filter(([file]) => file !== '.git' && !file.startsWith('.git/')));
}

/** The commits of the shadow's history from the newest checkpoint: each with its tree and parent count. */
function chain(gitDir: string, ref: string): { commit: string; tree: string; parents: number }[] {
  return shadowGit(gitDir, 'log', '--format=%H %T %P', ref)
    .trim()
    .split('\n')
    .map((line) => {
      const [commit = '', tree = '', ...parents] = line.split(' ');
      return { commit, tree, parents: parents.filter(Boolean).length };
    });
}


describe('retention', () => {
  it('drops checkpoints older than checkpoint_retention_days, reclaims their objects, and what is left restores exactly as one history', async () => {
    const dir = sb.repo('age');
    const files = new Map<number, Record<string, string>>();
    await history(dir, 0, 5, files);
    await history(dir, 16, 4, files);
    const { engine, checkpoints } = open(dir);
    const before = checkpoints.list();
    const droppedBlob = shadowGit(engine.repo.gitDir, 'rev-parse', `${before[0]!.commit}:data/day0.bin`).trim();
    const bytesBefore = await diskUsage(engine.store.root);

    clock = start + 20 * day;
    expect(await checkpoints.retentionDue({ days: 14, maxGb: 5 })).toBe(true);
    const result = await checkpoints.prune({ days: 14, maxGb: 5 });

    expect(result.byAge).toEqual(before.slice(0, 5).map((record) => record.id));
    expect(result.bySize).toEqual([]);
    const after = checkpoints.list();
    expect(after.map((record) => record.label)).toEqual(['day 16', 'day 17', 'day 18', 'day 19']);
    expect(after.map((record) => record.tree)).toEqual(before.slice(5).map((record) => record.tree));
    expect(result.bytesAfter).toBeLessThan(bytesBefore);
    expect(hasObject(engine.repo.gitDir, droppedBlob)).toBe(false);
    for (const record of before.slice(0, 5)) expect(shadowGit(engine.repo.gitDir, 'for-each-ref', `refs/checkpoints/${record.id}`)).toBe('');

    // One history: the newest's log is exactly the kept checkpoints, newest first, down to one root.
    const log = chain(engine.repo.gitDir, `refs/checkpoints/${after.at(-1)!.id}`);
    expect(log.map((entry) => entry.commit)).toEqual(after.map((record) => record.commit).reverse());
    expect(log.map((entry) => entry.tree)).toEqual(after.map((record) => record.tree).reverse());
    expect(log.map((entry) => entry.parents)).toEqual([1, 1, 1, 0]);
    expect(shadowGit(engine.repo.gitDir, 'fsck', '--no-dangling', '--connectivity-only')).toBe('');
    expect(shadowGit(engine.repo.gitDir, 'log', '-1', '--format=%s%n%b', after[0]!.commit)).toContain(`Rewind-Checkpoint: ${after[0]!.id}`);

    for (const record of after) {
      await checkpoints.restore(record.id);
      expect(withoutGit(fingerprint(dir))).toEqual(files.get(record.id));
    }
    // Snapshots go on from the pruned chain.
    write(dir, 'later.txt', 'later\n');
    const { record: next } = await checkpoints.snapshot({ label: 'later' });
    expect(next.id).toBeGreaterThan(before.at(-1)!.id);
    expect(chain(engine.repo.gitDir, `refs/checkpoints/${next.id}`).length).toBeGreaterThan(after.length);
    expect(await checkpoints.retentionDue({ days: 14, maxGb: 5 })).toBe(false);
  });

  it('a kept checkpoint that shared a dropped one\'s commit (no change between them) becomes the new root, with its tree', async () => {
    const dir = sb.repo('dedup');
    const files = new Map<number, Record<string, string>>();
    await history(dir, 0, 1, files);
    const { engine, checkpoints } = open(dir);
    clock = start + 10 * day;
    const { record: same } = await checkpoints.snapshot({ label: 'no change' });
    expect(same.deduped).toBe(true);
    await history(dir, 20, 1, files);
    clock = start + 21 * day;
    expect((await checkpoints.prune({ days: 14, maxGb: 5 })).byAge).toEqual([1]);
    const after = checkpoints.list();
    expect(after.map((record) => record.label)).toEqual(['no change', 'day 20']);
    const log = chain(engine.repo.gitDir, `refs/checkpoints/${after[1]!.id}`);
    expect(log.map((entry) => entry.parents)).toEqual([1, 0]);
    expect(log[1]!.tree).toBe(same.tree);
    await checkpoints.restore(same.id);
    expect(withoutGit(fingerprint(dir))).toEqual(files.get(1));
  });

  it('drops nothing by age with 0 days, yet holds the size cap; always keeps the newest', async () => {
    const dir = sb.repo('zero');
    await history(dir, 0, 4, new Map());
    const { checkpoints } = open(dir);
    clock = start + 400 * day;
    // 0 days turns off the age limit only: under the cap, everything stays.
    expect(await checkpoints.prune({ days: 0, maxGb: 5 })).toMatchObject({ byAge: [], bySize: [] });
    expect(checkpoints.list()).toHaveLength(4);
    // Over the cap, the oldest half goes as with any other age limit.
    expect(await checkpoints.prune({ days: 0, maxGb: 1 / 1024 / 1024 })).toMatchObject({ byAge: [], bySize: [1, 2] });
    expect(checkpoints.list()).toHaveLength(2);
    const result = await checkpoints.prune({ days: 1, maxGb: 5 });
    expect(result.byAge).toEqual([3]);
    expect(checkpoints.list().map((record) => record.label)).toEqual(['day 3']);
  });

  it('drops the oldest half of the rest when the store is still over checkpoint_max_gb', async () => {
    const dir = sb.repo('size');
    const files = new Map<number, Record<string, string>>();
    await history(dir, 0, 8, files);
    const { checkpoints } = open(dir);
    const before = checkpoints.list();
    const result = await checkpoints.prune({ days: 365, maxGb: 100 / 1024 / 1024 });
    expect(result.byAge).toEqual([]);
    expect(result.bySize).toEqual(before.slice(0, 4).map((record) => record.id));
    expect(checkpoints.list().map((record) => record.id)).toEqual(before.slice(4).map((record) => record.id));
    for (const record of checkpoints.list()) {
      await checkpoints.restore(record.id);
      expect(withoutGit(fingerprint(dir))).toEqual(files.get(record.id));
    }
  });

  it('does not halve again while the last halving freed little (the files as they are now fill the cap): only once the store grows by a tenth', async () => {
    const dir = sb.repo('size-held');
    write(dir, 'big.bin', randomBytes(512 * 1024));
    const { checkpoints } = open(dir);
    for (let n = 0; n < 8; n++) {
      clock = start + n * 60_000;
      write(dir, 'notes.txt', `step ${n}\n`);
      await checkpoints.snapshot({ label: `step ${n}`, backgroundScan: false });
    }
    const policy = { days: 365, maxGb: 100 / 1024 / 1024 };
    const first = await checkpoints.prune(policy);
    expect(first.bySize).toHaveLength(4);
    expect((await checkpoints.report(policy)).retention).toMatchObject({ overCap: true, sizeDropHeld: true });

    clock += 2 * 60 * 60 * 1000;
    const kept = checkpoints.list().map((record) => record.id);
    expect(await checkpoints.retentionDue(policy)).toBe(true);
    expect(await checkpoints.prune(policy)).toMatchObject({ bySize: [], sizeDropHeld: true });
    expect(await checkpoints.prune(policy, { dryRun: true })).toMatchObject({ bySize: [], sizeDropHeld: true });
    expect(checkpoints.list().map((record) => record.id)).toEqual(kept);

    write(dir, 'more.bin', randomBytes(128 * 1024));
    await checkpoints.snapshot({ label: 'grown', backgroundScan: false });
    const grown = await checkpoints.prune(policy);
    expect(grown.sizeDropHeld).toBeUndefined();
    expect(grown.bySize).toEqual(kept.slice(0, 2));
  });

  it('never drops what a restore of the last hour needs (the checkpoint redo goes back to, the one it put back); an hour later they go, and the redo point with them', async () => {
    const dir = sb.repo('redo');
    const files = new Map<number, Record<string, string>>();
    await history(dir, 0, 3, files);
    const { checkpoints } = open(dir);
    const tenMinutes = 10 / (24 * 60);
    clock = start + 10 * day;
    write(dir, 'notes.txt', 'edited before the restore\n');
    const editedFiles = withoutGit(fingerprint(dir));
    const restored = await checkpoints.restore(1);
    const redoPoint = restored.redo!;
    write(dir, 'after.txt', 'after the restore\n');
    await checkpoints.snapshot({ label: 'after' });

    // Half an hour later, with checkpoints kept for ten minutes only.
    clock += 30 * 60 * 1000;
    const early = await checkpoints.prune({ days: tenMinutes, maxGb: 5 });
    expect(early.byAge).toEqual([2, 3]);
    expect(checkpoints.list().map((record) => record.id)).toEqual([1, redoPoint, redoPoint + 1]);
    // The restore can still be undone, exactly.
    fs.rmSync(path.join(dir, 'after.txt'));
    const plan = await checkpoints.previewRedo();
    expect(plan.back.id).toBe(redoPoint);
    await checkpoints.redo();
    expect(withoutGit(fingerprint(dir))).toEqual(editedFiles);

    // Another restore; two hours later nothing protects it any more.
    const again = await checkpoints.restore(1);
    write(dir, 'later.txt', 'later\n');
    await checkpoints.snapshot({ label: 'later' });
    clock += 2 * 60 * 60 * 1000;
    const late = await checkpoints.prune({ days: tenMinutes, maxGb: 5 });
    expect(late.byAge).toContain(again.redo);
    expect(late.byAge).toContain(1);
    expect(await checkpoints.canUndo()).toBe(false);
  });

  it('a snapshot that comes while retention runs waits for it, then continues the rebuilt chain', async () => {
    const dir = sb.repo('concurrent');
    const files = new Map<number, Record<string, string>>();
    await history(dir, 0, 3, files);
    await history(dir, 20, 2, files);
    const { engine, checkpoints } = open(dir);
    clock = start + 21 * day;
    // Another opening of the same project, as another process would have.
    const other = open(dir).checkpoints;
    write(dir, 'meanwhile.txt', 'written while pruning\n');
    const [pruned, taken] = await Promise.all([checkpoints.prune({ days: 14, maxGb: 5 }), other.snapshot({ label: 'meanwhile', backgroundScan: false })]);
    expect(pruned.byAge).toEqual([1, 2, 3]);
    const after = checkpoints.list();
    expect(after.map((record) => record.label)).toEqual(['day 20', 'day 21', 'meanwhile']);
    const log = chain(engine.repo.gitDir, `refs/checkpoints/${taken.record.id}`);
    expect(log.map((entry) => entry.commit)).toEqual(after.map((record) => record.commit).reverse());
    expect(shadowGit(engine.repo.gitDir, 'fsck', '--no-dangling', '--connectivity-only')).toBe('');
    const expected = withoutGit(fingerprint(dir));
    await checkpoints.restore(after[0]!.id);
    expect(withoutGit(fingerprint(dir))).toEqual(files.get(after[0]!.id));
    await checkpoints.restore(taken.record.id);
    expect(withoutGit(fingerprint(dir))).toEqual(expected);
  });

  it('cleans what crashed processes left: stale lock files and temporary packs', async () => {
    const dir = sb.repo('leftovers');
    await history(dir, 0, 2, new Map());
    const { engine, checkpoints } = open(dir);
    const packs = path.join(engine.repo.gitDir, 'objects', 'pack');
    fs.writeFileSync(path.join(packs, 'tmp_pack_crashed'), 'half a pack');
    fs.writeFileSync(path.join(engine.repo.gitDir, 'index.lock'), '');
    const result = await checkpoints.prune({ days: 0, maxGb: 5 }, { reclaimAlways: true });
    expect(result.cleaned.sort()).toEqual(['index.lock', 'objects/pack/tmp_pack_crashed']);
    expect(fs.existsSync(path.join(packs, 'tmp_pack_crashed'))).toBe(false);
    expect(checkpoints.list()).toHaveLength(2);
  });

  it('finishes a drop a crash cut off between the list and the refs', async () => {
    const dir = sb.repo('crash');
    await history(dir, 0, 3, new Map());
    const { engine, checkpoints } = open(dir);
    // As a crash leaves it: the list already without #1, its ref still there, the marker left.
    engine.log.rewrite(checkpoints.list().slice(1));
    fs.writeFileSync(path.join(engine.store.root, 'pruning'), '1\n');
    expect(shadowGit(engine.repo.gitDir, 'for-each-ref', 'refs/checkpoints/1')).not.toBe('');
    expect(await checkpoints.retentionDue({ days: 0, maxGb: 5 })).toBe(true);
    await checkpoints.prune({ days: 0, maxGb: 5 });
    expect(shadowGit(engine.repo.gitDir, 'for-each-ref', 'refs/checkpoints/1')).toBe('');
    expect(fs.existsSync(path.join(engine.store.root, 'pruning'))).toBe(false);
    expect(checkpoints.list().map((record) => record.id)).toEqual([2, 3]);
  });

  it('a drop in steps: snapshots between them continue the chain, the refs follow the list a batch at a time, and one cut off between batches is finished next time', async () => {
    const dir = sb.repo('steps');
    const files = new Map<number, Record<string, string>>();
    await history(dir, 0, 6, files);
    const { engine, checkpoints } = open(dir);
    const { repo, log } = engine;
    const snapshot = async (label: string) => {
      write(dir, 'notes.txt', `${label}\n`);
      const { record } = await checkpoints.snapshot({ label, backgroundScan: false });
      files.set(record.id, withoutGit(fingerprint(dir)));
    };
    // Out of the list under the lock; a snapshot after it still chains onto the old commits.
    const kept = await engine.locked('test', async () => dropFromList(repo, log, new Set([1, 2])));
    await snapshot('after the list');
    const rechained = await rechainKept(repo, kept);
    await snapshot('while rechaining');
    await engine.locked('test', () => applyRechain(repo, log, rechained));
    // The list is one chain again, those two recreated after the rest; the refs not yet.
    const list = checkpoints.list();
    expect(list.map((record) => record.label)).toEqual(['day 2', 'day 3', 'day 4', 'day 5', 'after the list', 'while rechaining']);
    expect(chain(repo.gitDir, list.at(-1)!.commit).map((entry) => entry.commit)).toEqual(list.map((record) => record.commit).reverse());
    expect(shadowGit(repo.gitDir, 'rev-parse', 'refs/checkpoints/3').trim()).not.toBe(list[0]!.commit);
    // A batch of one ref change at a time, a snapshot between two; then the drop is cut off.
    const left = [await engine.locked('test', () => reconcileSome(repo, log, 1))];
    await snapshot('between batches');
    left.push(await engine.locked('test', () => reconcileSome(repo, log, 1)));
    expect(left[1]).toBe(left[0]! - 1);
    expect(fs.existsSync(engine.store.pruning)).toBe(true);
    // The next retention finishes it: every ref at its checkpoint's commit, the dropped ones gone.
    expect(await checkpoints.retentionDue({ days: 0, maxGb: 5 })).toBe(true);
    await checkpoints.prune({ days: 0, maxGb: 5 });
    expect(fs.existsSync(engine.store.pruning)).toBe(false);
    const after = checkpoints.list();
    expect(after.map((record) => record.id)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    const refs = shadowGit(repo.gitDir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/checkpoints/', 'refs/rewind/').trim().split('\n');
    expect(refs.sort()).toEqual(after.map((record) => `refs/checkpoints/${record.id} ${record.commit}`).sort());
    expect(chain(repo.gitDir, `refs/checkpoints/9`).map((entry) => entry.commit)).toEqual(after.map((record) => record.commit).reverse());
    expect(shadowGit(repo.gitDir, 'fsck', '--no-dangling')).toBe('');
    for (const record of after) {
      await checkpoints.restore(record.id);
      expect(withoutGit(fingerprint(dir))).toEqual(files.get(record.id));
    }
  });

  it('a kept checkpoint whose borrowed objects the project pruned is marked unrestorable; retention still runs and the rest restores', async () => {
    const dir = sb.repo('borrowed');
    const files = new Map<number, Record<string, string>>();
    await history(dir, 0, 1, files);
    commitOnFeatureBranch(sb, dir);
    await history(dir, 10, 1, files);
    // Its files committed on the branch only, then the branch deleted and collected.
    sb.git(dir, 'add', '-A');
    sb.git(dir, 'commit', '-q', '-m', 'on the branch');
    dropFeatureBranch(sb, dir);
    await history(dir, 20, 1, files);
    const { checkpoints } = open(dir);
    clock = start + 21 * day;
    const result = await checkpoints.prune({ days: 14, maxGb: 5 });
    expect(result.byAge).toEqual([1]);
    const after = checkpoints.list();
    expect(after.map((record) => [record.id, record.unrestorable === true])).toEqual([
      [2, true],
      [3, false],
    ]);
    await checkpoints.restore(3);
    expect(withoutGit(fingerprint(dir))).toEqual(files.get(3));
  });

  it('a dry run says what would go and changes nothing', async () => {
    const dir = sb.repo('dry');
    await history(dir, 0, 4, new Map());
    const { engine, checkpoints } = open(dir);
    clock = start + 30 * day;
    const storeBefore = fingerprint(engine.store.root);
    const result = await checkpoints.prune({ days: 14, maxGb: 100 / 1024 / 1024 }, { dryRun: true });
    expect(result.dryRun).toBe(true);
    expect(result.byAge).toHaveLength(3);
    expect(fingerprint(engine.store.root)).toEqual(storeBefore);
  });

  it('counts bytes as du does, finds stores whose project is gone, and deletes them', async () => {
    const kept = sb.repo('kept');
    const gone = sb.repo('gone');
    await history(kept, 0, 2, new Map());
    await history(gone, 0, 2, new Map());
    fs.rmSync(gone, { recursive: true, force: true });
    const stores = await listStores(sb.store);
    expect(stores.map((entry) => [path.basename(entry.project), entry.exists, entry.checkpoints]).sort()).toEqual([
      ['gone', false, 2],
      ['kept', true, 2],
    ]);
    for (const entry of stores) {
      const du = Number(execFileSync('du', ['-sB1', entry.store], { encoding: 'utf8' }).split('\t')[0]);
      expect(entry.bytes).toBe(du);
    }
    const orphan = stores.find((entry) => !entry.exists)!;
    await removeStore(sb.store, orphan);
    expect(fs.existsSync(orphan.store)).toBe(false);
    expect((await listStores(sb.store)).map((entry) => path.basename(entry.project))).toEqual(['kept']);
  });
});
