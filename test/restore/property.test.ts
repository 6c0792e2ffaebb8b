// Property: after any sequence of file operations with snapshots in between, restoring
// any of those checkpoints makes the project equal that checkpoint exactly (ignored files
// aside, which stay as they are); files already right are not touched; redo goes back.
// One sandbox and one project for all runs (the project is emptied at the start of each).
// REWIND_PROPERTY_RUNS overrides the number of runs: 60 in `npm test` (~0.3 s each on two
// cores), more in the bench (`npm run bench -- --only=property`).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import { redoLast } from '../../src/checkpoints/restore/redo.js';
import { restoreCheckpoint } from '../../src/checkpoints/restore/restore.js';
import { expectedChange, projectState, stamps, type State } from '../helpers/restoreKit.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

const runs = Number(process.env.REWIND_PROPERTY_RUNS ?? '') || 60;

type Op =
  | { kind: 'write'; path: string; data: Uint8Array | string; exec: boolean }
  | { kind: 'remove'; path: string }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'chmod'; path: string }
  | { kind: 'ignored'; data: string };

// Short names, some awkward; few enough that paths collide (file <-> folder changes).
const segment = fc.constantFrom('a', 'b', 'c d', 'é', '-x', 'n\nl');
const filePath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
const data = fc.oneof(fc.constant(''), fc.string({ maxLength: 12 }), fc.uint8Array({ maxLength: 24 }));
// Symlink targets never resolve to a folder: that case has its own tests (roundTrip).
const linkTarget = fc.constantFrom('nowhere', 'nowhere/deeper', '../outside', '/nonexistent/absolute', 'README.md');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('write' as const), path: filePath, data, exec: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), path: filePath }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('symlink' as const), path: filePath, target: linkTarget }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('chmod' as const), path: filePath }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ignored' as const), data: fc.string({ maxLength: 8 }) }) },
);
const scenario = fc.record({
  steps: fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 }),
  /** Edits after the newest checkpoint, which the restore overwrites and redo brings back. */
  unsaved: fc.array(op, { maxLength: 3 }),
  target: fc.nat(),
  /** Also undo the restore (a third of the runs: each redo is a snapshot and a restore more). */
  redo: fc.integer({ min: 0, max: 2 }).map((n) => n === 0),
});

const ignoredName = 'ignored.log';

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/** Removes the folders above `file` that are empty, up to the root (a user's tools leave none). */
function pruneEmpty(root: string, file: string): void {
  for (let dir = path.dirname(path.join(root, file)); dir !== root; dir = path.dirname(dir)) {
    if (fs.readdirSync(dir).length > 0) return;
    fs.rmdirSync(dir);
  }
}

/** Makes `file`'s folders real folders (removing files or symlinks in the way) and clears `file`. */
function makeRoom(root: string, file: string): string {
  let current = root;
  for (const part of file.split('/').slice(0, -1)) {
    current = path.join(current, part);
    const stat = lstat(current);
    if (stat && !stat.isDirectory()) fs.rmSync(current);
    if (!stat || !stat.isDirectory()) fs.mkdirSync(current);
  }
  const full = path.join(root, file);
  if (lstat(full)) fs.rmSync(full, { recursive: true });
  return full;
}

function apply(root: string, operation: Op): void {
  switch (operation.kind) {
    case 'write': {
      const full = makeRoom(root, operation.path);
      fs.writeFileSync(full, operation.data);
      fs.chmodSync(full, operation.exec ? 0o755 : 0o644);
      return;
    }
    case 'symlink':
      fs.symlinkSync(operation.target, makeRoom(root, operation.path));
      return;
    case 'remove': {
      const full = path.join(root, operation.path);
      if (!lstat(full)) return;
      fs.rmSync(full, { recursive: true });
      pruneEmpty(root, operation.path);
      return;
    }
    case 'chmod': {
      const full = path.join(root, operation.path);
      const stat = lstat(full);
      if (stat?.isFile()) fs.chmodSync(full, stat.mode & 0o100 ? 0o644 : 0o755);
      return;
    }
    case 'ignored':
      fs.writeFileSync(path.join(root, ignoredName), operation.data);
      return;
  }
}

/** The project as data, with file modes reduced to what git keeps (the executable bit). */
function canonical(root: string): State {
  const out: State = {};
  for (const [file, value] of Object.entries(projectState(root))) {
    const [type, mode, ...rest] = value.split(' ');
    if (type === 'dir') out[file] = 'dir -';
    else if (type === 'file') out[file] = `file ${Number.parseInt(mode ?? '0', 8) & 0o100 ? 'x' : '-'} ${rest.join(' ')}`;
    else out[file] = value.replace(/^symlink \d+/, 'symlink');
  }
  return out;
}

/** The project as the checkpoint left it, with the ignored file as it is now. */
function expectedAfter(atCheckpoint: State, now: State): State {
  const { [ignoredName]: _then, ...rest } = atCheckpoint;
  return now[ignoredName] === undefined ? rest : { ...rest, [ignoredName]: now[ignoredName] };
}

/** One project with its own engine: the runs are shared between two of them, run side by side. */
interface Lane {
  root: string;
  engine: CheckpointEngine;
}

let sb: Sandbox;
let lanes: Lane[] = [];
beforeAll(() => {
  sb = createSandbox('rewind-restore-property-');
  lanes = ['one', 'two'].map((name) => {
    const root = sb.repo(name);
    fs.writeFileSync(path.join(root, '.gitignore'), `/${ignoredName}\n`);
    sb.git(root, 'add', '.gitignore');
    sb.git(root, 'commit', '-q', '-m', 'ignore rules');
    return { root, engine: sb.open(root) };
  });
});
afterAll(async () => {
  await sb.cleanup();
});

/** Back to README.md and .gitignore only, so each run starts alike (the store keeps its history). */
function resetProject(root: string): void {
  for (const name of fs.readdirSync(root)) {
    if (name !== '.git' && name !== '.gitignore' && name !== 'README.md') fs.rmSync(path.join(root, name), { recursive: true });
  }
}

/** The property, on one lane's project. */
function restoresExactly({ root, engine }: Lane) {
  return fc.asyncProperty(scenario, async ({ steps, unsaved, target, redo }) => {
    resetProject(root);
    const taken: { id: number; state: State }[] = [];
    for (const ops of steps) {
      for (const operation of ops) apply(root, operation);
      const state = canonical(root);
      // No background walk for heavy files after each snapshot: this test has none, and
      // the walk would only compete for the CPU.
      const { record } = await engine.snapshot({ label: 'property', backgroundScan: false });
      taken.push({ id: record.id, state });
    }
    for (const operation of unsaved) apply(root, operation);
    const chosen = taken[target % taken.length];
    if (!chosen) throw new Error('no checkpoint taken');
    const before = canonical(root);
    const beforeStamps = stamps(root);

    const result = await restoreCheckpoint(engine, chosen.id);
    const after = canonical(root);
    const want = expectedAfter(chosen.state, before);
    expect(after, `restore of #${chosen.id}`).toEqual(want);
    const change = expectedChange(before, want);
    expect([...result.changed].sort(), 'written').toEqual(change.changed);
    expect([...result.deleted].sort(), 'deleted').toEqual(change.deleted);
    expect(result.leftAlone, 'left alone').toEqual([]);
    // Files already right are not rewritten: same mtime, same inode.
    const afterStamps = stamps(root);
    for (const [file, value] of Object.entries(before)) {
      if (!value.startsWith('dir ') && after[file] === value) expect(afterStamps[file], `${file} untouched`).toBe(beforeStamps[file]);
    }

    // A restore that changed nothing pushes no redo point: redo would undo an earlier one.
    if (redo && result.changed.length + result.deleted.length > 0) {
      await redoLast(engine);
      expect(canonical(root), 'after redo').toEqual(before);
    }
  });
}

describe('restore, property-based', () => {
  it(`restoring any checkpoint gives exactly its files (${runs} runs)`, { timeout: 60_000 + runs * 1_000 }, async () => {
    // Two projects side by side: git processes are the cost, and there are two cores.
    const shares = [Math.ceil(runs / 2), Math.floor(runs / 2)];
    await Promise.all(lanes.map((lane, index) => fc.assert(restoresExactly(lane), { numRuns: shares[index] ?? 0 })));
  });
});
