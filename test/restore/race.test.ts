// Snapshots and restores from different processes never interleave: a snapshot loop
// (the built CLI, back to back) while the built CLI restores back and forth from other
// processes. No checkpoint is lost, none holds a half-restored tree, the files end whole.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rewind } from '../helpers/io.js';
import { actualTree, expectedTree, shadowGit } from '../helpers/shadow.js';
import {
  projectState,
  builtCli,
  redoRefs,
  requireBuiltCli,
  restoreLeftovers,
  runBuiltCli,
  snapshotId,
  type RestoreJson,
} from '../helpers/restoreKit.js';
import { waitFor } from '../helpers/waitFor.js';
import { createSandbox, defaultSettings, write, type Sandbox } from '../helpers/tempRepo.js';
import { Children } from '../helpers/children.js';
import { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';

let sb: Sandbox;
const children = new Children();
beforeAll(() => {
  requireBuiltCli();
});
beforeEach(() => {
  sb = createSandbox('rewind-restore-race-');
});
afterEach(async () => {
  await children.killAll();
  await sb.cleanup();
});

/**
 * A shell loop running `rewind snapshot --json` (the built CLI: one process per snapshot,
 * as an agent's hook does) back to back until `stop` exists.
 */
const loopScript = `
node=$1 cli=$2 root=$3 stop=$4
n=0
while [ ! -e "$stop" ]; do
  "$node" "$cli" snapshot --json --label "loop $n" -C "$root" || echo '{"failed":true}'
  n=$((n + 1))
done
`;

interface LoopRecord {
  id: number;
  tree: string;
  commit: string;
  failed?: boolean;
}

function startSnapshotLoop(root: string, stop: string) {
  const child = spawn('sh', ['-c', loopScript, 'snapshot-loop', process.execPath, builtCli, root, stop], { cwd: sb.base, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  // Complete lines only: a line being written is not a snapshot yet.
  const records = () => stdout.split('\n').slice(0, -1).map((line) => JSON.parse(line) as LoopRecord);
  return { records, stderr: () => stderr, exited };
}

async function restoreInChild(root: string, id: number): Promise<RestoreJson> {
  const result = await runBuiltCli(['restore', String(id), '--yes', '--json', '-C', root], sb.env, sb.base);
  expect(result.stderr, `restore ${id}`).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as RestoreJson;
}

describe('cross-process lock', () => {
  it('a snapshot loop in one process and restores from others: no lost checkpoint, no half-restored one, the files whole', { timeout: 120_000 }, async () => {
    const root = sb.repo('race');
    for (let i = 0; i < 20; i++) write(root, `src/file${i}.txt`, `A ${i}\n`);
    write(root, 'only-a/x.txt', 'only in A\n');
    const stateA = projectState(root);
    const treeA = expectedTree(root);
    const a = await snapshotId(rewind, sb.env, root, 'A');
    for (let i = 0; i < 20; i += 2) write(root, `src/file${i}.txt`, `B ${i}, longer than A\n`);
    fs.rmSync(path.join(root, 'only-a'), { recursive: true });
    write(root, 'only-b/y.txt', 'only in B\n');
    const stateB = projectState(root);
    const treeB = expectedTree(root);
    const b = await snapshotId(rewind, sb.env, root, 'B');

    const stop = path.join(sb.base, 'stop-the-loop');
    const loop = startSnapshotLoop(root, stop);
    await waitFor(() => loop.records().length >= 1, 20_000, 'the first snapshot of the loop');
    const restores: RestoreJson[] = [];
    for (let round = 0; round < 6; round++) {
      const target = round % 2 === 0 ? a : b;
      const seen = loop.records().length;
      restores.push(await restoreInChild(root, target));
      expect(projectState(root), `after restoring #${target}`).toEqual(target === a ? stateA : stateB);
      // The loop takes at least one snapshot before the next restore starts.
      await waitFor(() => loop.records().length > seen, 20_000, 'a loop snapshot after the restore');
    }
    fs.writeFileSync(stop, '');
    expect(await loop.exited).toBe(0);
    expect(loop.stderr()).toBe('');

    const looped = loop.records();
    expect(looped.filter((record) => record.failed)).toEqual([]);
    const checkpoints = sb.open(root);
    const gitDir = checkpoints.repo.gitDir;
    const list = checkpoints.list();
    // Every checkpoint is there, once, in order: the two, the loop's, one redo point per restore.
    expect(list.map((record) => record.id)).toEqual(Array.from({ length: 2 + looped.length + restores.length }, (_, i) => i + 1));
    expect(new Set(looped.map((record) => record.id)).size).toBe(looped.length);
    for (const { id, tree, commit } of looped) expect(list.find((entry) => entry.id === id)).toMatchObject({ id, tree, commit });
    const redoPoints = restores.map((restore) => restore.redo);
    expect(redoPoints.every((id) => typeof id === 'number')).toBe(true);
    // No checkpoint holds a half-restored tree: each is A or B exactly.
    const treeIdOfA = list[a - 1]?.tree;
    const treeIdOfB = list[b - 1]?.tree;
    expect(actualTree(gitDir, treeIdOfA ?? '')).toEqual(treeA);
    expect(actualTree(gitDir, treeIdOfB ?? '')).toEqual(treeB);
    for (const record of list) {
      expect([treeIdOfA, treeIdOfB], `#${record.id} (${record.label})`).toContain(record.tree);
      expect(shadowGit(gitDir, 'rev-parse', `${record.commit}^{tree}`).trim(), `#${record.id}`).toBe(record.tree);
    }
    // The chain: each new commit sits on the one before it.
    for (let i = 1; i < list.length; i++) {
      const record = list[i];
      const previous = list[i - 1];
      if (!record || !previous) continue;
      if (record.deduped) expect(record.commit, `#${record.id}`).toBe(previous.commit);
      else expect(shadowGit(gitDir, 'rev-parse', `${record.commit}^`).trim(), `#${record.id}`).toBe(previous.commit);
    }
    expect(redoRefs(gitDir)).toHaveLength(restores.length);
    expect(restoreLeftovers(checkpoints.store.root, root)).toEqual([]);
    expect(fs.existsSync(checkpoints.store.lock)).toBe(false);
  });

  it('two restores started together wait their turn: the files end wholly at one, and two redos walk back to the start', { timeout: 60_000 }, async () => {
    const root = sb.repo('two-restores');
    for (let i = 0; i < 15; i++) write(root, `f${i}.txt`, `A ${i}\n`);
    const stateA = projectState(root);
    const a = await snapshotId(rewind, sb.env, root, 'A');
    for (let i = 0; i < 15; i++) write(root, `f${i}.txt`, `B ${i}\n`);
    write(root, 'b-only/new.txt', 'B\n');
    const stateB = projectState(root);
    const b = await snapshotId(rewind, sb.env, root, 'B');
    for (let i = 0; i < 15; i += 3) write(root, `f${i}.txt`, `C ${i}, never checkpointed\n`);
    write(root, 'c-only.txt', 'C\n');
    const stateC = projectState(root);

    const [toA, toB] = await Promise.all([restoreInChild(root, a), restoreInChild(root, b)]);
    expect(toA.checkpoint).toBe(a);
    expect(toB.checkpoint).toBe(b);
    const final = projectState(root);
    expect([stateA, stateB]).toContainEqual(final);
    const other = final === stateA || JSON.stringify(final) === JSON.stringify(stateA) ? stateB : stateA;

    const checkpoints = sb.open(root);
    expect(redoRefs(checkpoints.repo.gitDir)).toHaveLength(2);
    expect((await rewind(['redo', '--yes'], sb.env, root)).code).toBe(0);
    expect(projectState(root)).toEqual(other);
    expect((await rewind(['redo', '--yes'], sb.env, root)).code).toBe(0);
    expect(projectState(root)).toEqual(stateC);
    expect(restoreLeftovers(checkpoints.store.root, root)).toEqual([]);
  });

  // Something the lock does not hold back (an agent without hooks, a build) writes while a
  // restore stages its files: what it wrote is in no checkpoint, so the restore leaves it.
  it('a planned file written while the restore stages is left alone, as it was written; the rest is restored', async () => {
    const root = sb.repo('written-meanwhile');
    for (const name of ['kept', 'replaced', 'raced']) write(root, `${name}.txt`, `${name} at the checkpoint\n`);
    let written = false;
    const engine = CheckpointEngine.open({
      cwd: root,
      settings: defaultSettings,
      home: sb.store,
      env: sb.env,
      onProgress: (progress) => {
        if (progress.task !== 'restore' || written || progress.finished) return;
        written = true;
        write(root, 'raced.txt', 'written by the agent during the restore\n');
        write(root, 'created-meanwhile.txt', 'created by the agent during the restore\n');
        write(root, 'doomed.txt', 'edited by the agent during the restore\n');
      },
    });
    const checkpoints = engine;
    // created-meanwhile.txt is at the checkpoint and gone after it: the restore creates it.
    write(root, 'created-meanwhile.txt', 'created-meanwhile at the checkpoint\n');
    const target = await checkpoints.snapshot({ label: 'A' });
    for (const name of ['replaced', 'raced']) write(root, `${name}.txt`, `${name}, edited after\n`);
    fs.rmSync(path.join(root, 'created-meanwhile.txt'));
    // doomed.txt is new after the checkpoint: the restore deletes it.
    write(root, 'doomed.txt', 'created after the checkpoint\n');
    await checkpoints.snapshot({ label: 'B' });

    const result = await checkpoints.restore(target.record.id);
    expect(written).toBe(true);
    expect(result.changed).toEqual(['replaced.txt']);
    expect(result.leftAlone.filter((item) => /changed while the restore ran/.test(item.reason)).map((item) => item.path).sort()).toEqual(['created-meanwhile.txt', 'doomed.txt', 'raced.txt']);
    expect(fs.readFileSync(path.join(root, 'replaced.txt'), 'utf8')).toBe('replaced at the checkpoint\n');
    expect(fs.readFileSync(path.join(root, 'raced.txt'), 'utf8')).toBe('written by the agent during the restore\n');
    expect(fs.readFileSync(path.join(root, 'doomed.txt'), 'utf8')).toBe('edited by the agent during the restore\n');
    expect(fs.readFileSync(path.join(root, 'created-meanwhile.txt'), 'utf8')).toBe('created by the agent during the restore\n');
  });

  it('two hard links to one file, one deleted and one replaced by the restore: both happen (the first changes the other\'s ctime, not its content)', async () => {
    const root = sb.repo('hard-links');
    write(root, 'b.txt', 'b at the checkpoint\n');
    const checkpoints = sb.open(root);
    const target = await checkpoints.snapshot({ label: 'A' });
    write(root, 'a.txt', 'one file, two names\n');
    fs.rmSync(path.join(root, 'b.txt'));
    fs.linkSync(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
    await checkpoints.snapshot({ label: 'B' });
    const result = await checkpoints.restore(target.record.id);
    expect({ changed: result.changed, deleted: result.deleted }).toEqual({ changed: ['b.txt'], deleted: ['a.txt'] });
    expect(fs.readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('b at the checkpoint\n');
  });
});

