// Property: random edits, ignore-rule changes (root and nested .gitignore files added,
// changed, removed), snapshots, restores and redos, interleaved. After EACH step the files
// on disk are exactly what the model says (test/helpers/ignoreModel.ts, with git itself
// as the oracle for ignore rules), no file that was ignored before a restore or redo has
// changed, and a redo right after a restore brings the tree back exactly.
// REWIND_PROPERTY_RUNS overrides the number of runs: 30 in `npm test` (~0.7 s each on two
// cores: `npm test` keeps to its 15 minutes), 2,000 in the bench (`npm run bench -- --only=property`).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckpointEngine } from '../../src/checkpoints/checkpointEngine.js';
import { redoLast } from '../../src/checkpoints/restore/redo.js';
import { restoreCheckpoint, type RestoreResult } from '../../src/checkpoints/restore/restore.js';
import { checkpointOf, emptyFolders, ignoredBy, readFiles, restoreOutcome, type Files } from '../helpers/ignoreModel.js';
import { blobOid, readTree, shadowGit } from '../helpers/shadow.js';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

const runs = Number(process.env.REWIND_PROPERTY_RUNS ?? '') || 30;

type Step =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'remove'; path: string }
  | { kind: 'rules'; folder: string; patterns: string[] }
  | { kind: 'dropRules'; folder: string }
  | { kind: 'snapshot' }
  | { kind: 'restore'; pick: number }
  | { kind: 'redo' };

// Few names, so that paths collide (a file where a folder was) and rules hit them; odd ones
// among them. No pattern matches `.gitignore` itself: a rules file that ignores itself is
// in no checkpoint, so its checkpoint cannot know its rules.
const segment = fc.constantFrom('a', 'b', 'c d', 'é', '-x', 'n\nl', 'x.log', 'node_modules', 'keep.log');
const filePath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
// The root's rules most often: they reach every file.
const folder = fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'c d', 'a/b', 'n\nl') });
const pattern = fc.constantFrom('*.log', '!keep.log', 'node_modules/', '/b', 'a/', 'c d', 'é*', '-x', 'n?l', '**/b/x.log', 'b/', '/a/b');
const content = fc.constantFrom('', 'one\n', 'two\n', 'three, longer\n');
// Names the patterns above often match, for files that are ignored, or stop being.
const ignorable = fc.constantFrom('x.log', 'a/x.log', 'b/x.log', 'a/b/x.log', 'keep.log', 'node_modules/m', 'node_modules/é/m', 'b', 'b/c d', 'a/é', 'c d/a', 'é', '-x', 'n\nl/-x', 'a/b/-x');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('write' as const), path: fc.oneof(filePath, ignorable), content }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), path: fc.oneof(filePath, ignorable) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('rules' as const), folder, patterns: fc.uniqueArray(pattern, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('dropRules' as const), folder }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'redo' as const }) },
);
/**
 * The shape item 1 was found in, with random parts: a checkpoint, new rules and files
 * they may ignore (and other edits), a restore to a checkpoint from before (often that
 * one: `pick` counts from the newest back), then maybe edits, and a redo.
 */
const episode: fc.Arbitrary<Step[]> = fc
  .tuple(
    fc.record({ kind: fc.constant('rules' as const), folder, patterns: fc.uniqueArray(pattern, { minLength: 1, maxLength: 3 }) }),
    fc.array(fc.record({ kind: fc.constant('write' as const), path: ignorable, content }), { minLength: 1, maxLength: 3 }),
    fc.array(step, { maxLength: 2 }),
    fc.boolean(),
    fc.array(step, { maxLength: 2 }),
  )
  .map(([rules, ignoredWrites, between, snapshotAfter, after]) => [
    { kind: 'snapshot' as const },
    rules,
    ...ignoredWrites,
    ...between,
    ...(snapshotAfter ? [{ kind: 'snapshot' as const }] : []),
    { kind: 'restore' as const, pick: -1 },
    ...after,
    { kind: 'redo' as const },
  ]);
// A snapshot first, so restores have something to go to.
const scenario = fc
  .array(fc.oneof({ weight: 2, arbitrary: step.map((one) => [one]) }, { weight: 1, arbitrary: episode }), { minLength: 2, maxLength: 4 })
  .map((parts) => [{ kind: 'snapshot' as const }, ...parts.flat()]);

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/** Writes a file as a user's tools would: files in the way of its folders go. */
function writeFile(root: string, file: string, data: string): void {
  let current = root;
  for (const part of file.split('/').slice(0, -1)) {
    current = path.join(current, part);
    const stat = lstat(current);
    if (stat && !stat.isDirectory()) fs.rmSync(current);
    if (!stat?.isDirectory()) fs.mkdirSync(current);
  }
  const full = path.join(root, file);
  if (lstat(full)) fs.rmSync(full, { recursive: true });
  fs.writeFileSync(full, data);
}

/** Removes a path and the folders that leaves empty. */
function removePath(root: string, file: string): void {
  const full = path.join(root, file);
  if (!lstat(full)) return;
  fs.rmSync(full, { recursive: true });
  for (let dir = path.dirname(full); dir !== root; dir = path.dirname(dir)) {
    if (fs.readdirSync(dir).length > 0) return;
    fs.rmdirSync(dir);
  }
}

function rulesFile(folderPath: string): string {
  return folderPath === '' ? '.gitignore' : `${folderPath}/.gitignore`;
}

/** One project with its own engine and scratch repository: runs are shared between two, side by side. */
interface Lane {
  root: string;
  engine: CheckpointEngine;
  scratch: string;
}

let sb: Sandbox;
let lanes: Lane[] = [];
beforeAll(() => {
  sb = createSandbox('rewind-ignore-property-');
  lanes = ['one', 'two'].map((name) => {
    const scratch = sb.folder(`${name}-scratch`);
    sb.git(scratch, 'init', '-q');
    const root = sb.repo(name);
    return { root, engine: sb.open(root), scratch };
  });
});
afterAll(async () => {
  await sb.cleanup();
});

/** The files of a checkpoint as the store holds them, for checking the model's idea of it. */
function storedFiles(engine: CheckpointEngine, id: number): Map<string, string> {
  return new Map([...readTree(engine.repo.gitDir, engine.get(id).tree)].map(([file, entry]) => [file, entry.oid]));
}

function asOids(files: Files): Map<string, string> {
  return new Map([...files].map(([file, data]) => [file, blobOid(Buffer.from(data))]));
}

function sorted(files: Files): [string, string][] {
  return [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Each run starts from README.md alone and an empty redo stack (the store keeps its history). */
function resetLane({ root, engine }: Lane): void {
  for (const name of fs.readdirSync(root)) if (name !== '.git' && name !== 'README.md') fs.rmSync(path.join(root, name), { recursive: true });
  if (!engine.initialized) return;
  const refs = shadowGit(engine.repo.gitDir, 'for-each-ref', '--format=%(refname)', 'refs/rewind/redo/');
  for (const ref of refs.split('\n').filter(Boolean)) shadowGit(engine.repo.gitDir, 'update-ref', '-d', ref);
}

function property(lane: Lane) {
  const { root, engine, scratch } = lane;
  return fc.asyncProperty(scenario, async (steps) => {
    resetLane(lane);
    /** The model: the files on disk, each checkpoint taken in this run, the redo stack. */
    let disk = readFiles(root);
    const checkpoints = new Map<number, Files>();
    const redoStack: number[] = [];
    let justRestored: Files | undefined;
    let episodeStart: number | undefined;

    /** Per redo point on the stack: the files its restore created (for the redo that undoes it). */
    const createdStack: Files[] = [];

    const restoreAndCheck = async (targetId: number, run: () => Promise<RestoreResult>, what: string, undoneCreated?: Files) => {
      const target = checkpoints.get(targetId);
      if (!target) throw new Error(`no model of #${targetId}`);
      const current = checkpointOf(sb.gitEnv, root, disk);
      const expected = restoreOutcome(disk, current, target, (files) => ignoredBy(sb.gitEnv, scratch, target, files), undoneCreated);
      const before = disk;
      const result = await run();
      const actual = readFiles(root);
      expect(sorted(actual), `${what}: the files`).toEqual(sorted(expected.disk));
      expect(emptyFolders(root), `${what}: folders left empty`).toEqual([]);
      expect([...result.leftAlone.map((item) => item.path)].sort(), `${what}: left alone`).toEqual(expected.leftAlone);
      for (const [file, data] of before) {
        if (!current.has(file)) expect(actual.get(file), `${what}: ignored ${JSON.stringify(file)} untouched`).toBe(data);
      }
      disk = actual;
      return { result, current, changes: expected.changes };
    };

    for (const [index, item] of steps.entries()) {
      const what = `step ${index} (${JSON.stringify(item)})`;
      const restoredBefore = justRestored;
      justRestored = undefined;
      switch (item.kind) {
        case 'write':
          writeFile(root, item.path, item.content);
          break;
        case 'remove':
          removePath(root, item.path);
          break;
        case 'rules':
          writeFile(root, rulesFile(item.folder), `${item.patterns.join('\n')}\n`);
          break;
        case 'dropRules':
          removePath(root, rulesFile(item.folder));
          break;
        case 'snapshot': {
          const { record } = await engine.snapshot({ label: 'property', backgroundScan: false });
          if (steps[index + 1]?.kind === 'rules') episodeStart = record.id;
          const held = checkpointOf(sb.gitEnv, root, disk);
          expect(storedFiles(engine, record.id), `${what}: checkpoint #${record.id} holds what git status shows`).toEqual(asOids(held));
          checkpoints.set(record.id, held);
          break;
        }
        case 'restore': {
          // An episode's restore (pick -1) goes to the checkpoint taken before its new rules.
          const ids = [...checkpoints.keys()];
          const id = item.pick < 0 ? (episodeStart ?? ids[0] ?? 0) : (ids[item.pick % ids.length] ?? 0);
          const before = disk;
          const { result, current, changes } = await restoreAndCheck(id, () => restoreCheckpoint(engine, id), `${what}: restore #${id}`);
          expect(result.redo !== null, `${what}: a redo point exactly when files change`).toBe(changes);
          if (result.redo !== null) {
            expect(storedFiles(engine, result.redo), `${what}: the redo point holds what git status showed`).toEqual(asOids(current));
            checkpoints.set(result.redo, current);
            redoStack.push(result.redo);
            createdStack.push(new Map([...disk].filter(([file]) => !before.has(file))));
            justRestored = before;
          }
          break;
        }
        case 'redo': {
          const back = redoStack.pop();
          if (back === undefined) break;
          await restoreAndCheck(back, () => redoLast(engine), `${what}: redo to #${back}`, createdStack.pop());
          if (restoredBefore) expect(sorted(disk), `${what}: a redo right after a restore gives the tree back exactly`).toEqual(sorted(restoredBefore));
          break;
        }
      }
      if (item.kind !== 'restore' && item.kind !== 'redo') disk = readFiles(root);
    }
  });
}

describe('restore and redo with changing ignore rules, property-based', () => {
  it(`the disk is always what the model says and no ignored file ever changes (${runs} runs)`, { timeout: 60_000 + runs * 1_500 }, async () => {
    // Two projects side by side: git processes are the cost, and there are two cores.
    const shares = [Math.ceil(runs / 2), Math.floor(runs / 2)];
    await Promise.all(lanes.map((lane, index) => fc.assert(property(lane), { numRuns: shares[index] ?? 0 })));
  });
});
