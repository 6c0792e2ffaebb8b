// Property (issue 28): random steps on a few text files (edits, creations, deletions,
// renames), then a revert of a random one, of all of it or of some files (--only), conflicts
// kept as they are. Each file must end as git's own three-way file merge says,
// computed apart, file by file (`git merge-file`, the step's end as the base, the files now
// and the files before the step as the sides): back as before the step where nothing later
// touched it, as it is now where the step did not, the merge where that is clean; and a
// conflict exactly where it is not (or where a file is gone on one side), left as it is now.
// REWIND_PROPERTY_RUNS / 5 runs (20 in `npm test`; more in the bench's property runs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../helpers/tempRepo.js';

const runs = Math.max(10, Math.ceil((Number(process.env.REWIND_PROPERTY_RUNS ?? '') || 100) / 5));
const names = ['f0.txt', 'f1.txt', 'src/f2.txt', 'src/f3.txt'] as const;
const lineCount = 8;

type Op = { kind: 'edit'; file: number; line: number } | { kind: 'remove'; file: number } | { kind: 'create'; file: number } | { kind: 'rename'; file: number; to: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('edit' as const), file: fc.nat(names.length - 1), line: fc.nat(lineCount - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), file: fc.nat(names.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('create' as const), file: fc.nat(names.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), file: fc.nat(names.length - 1), to: fc.nat(names.length - 1) }) },
);
const scenario = fc.record({
  steps: fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 4 }),
  /** Edits after the newest checkpoint: part of "the files now". */
  after: fc.array(op, { maxLength: 2 }),
  revert: fc.nat(3),
  /** Which files `--only` names (none: the whole step). */
  only: fc.subarray([...names], { maxLength: 2 }),
});

type Files = Map<string, string>;

let sb: Sandbox;
let counter = 0;
beforeAll(() => {
  sb = createSandbox('rewind-revert-property-');
});
afterAll(() => sb.cleanup());

function read(root: string): Files {
  const files: Files = new Map();
  for (const name of names) {
    const full = path.join(root, name);
    if (fs.existsSync(full)) files.set(name, fs.readFileSync(full, 'utf8'));
  }
  return files;
}

/** Applies `op`; every line written is unique to its file and to this write (a rename moves the file as it is). */
function apply(root: string, { kind, file, ...rest }: Op): void {
  const name = names[file] ?? names[0];
  const full = path.join(root, name);
  counter += 1;
  if (kind === 'remove') return fs.rmSync(full, { force: true });
  if (kind === 'rename') {
    const target = path.join(root, names['to' in rest ? rest.to : 0] ?? names[0]);
    if (!fs.existsSync(full) || fs.existsSync(target)) return;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    return fs.renameSync(full, target);
  }
  fs.mkdirSync(path.dirname(full), { recursive: true });
  if (kind === 'create' || !fs.existsSync(full)) {
    fs.writeFileSync(full, Array.from({ length: lineCount }, (_, i) => `${name} v${counter} line ${i}\n`).join(''));
    return;
  }
  const lines = fs.readFileSync(full, 'utf8').split('\n');
  lines[('line' in rest ? rest.line : 0) % lineCount] = `${name} edit ${counter}`;
  fs.writeFileSync(full, lines.join('\n'));
}

/** git merge-file of one file: its merged text, or undefined on a conflict. */
function mergeFile(now: string, base: string, other: string): string | undefined {
  const dir = fs.mkdtempSync(path.join(sb.base, 'merge-'));
  const [n, a, b] = ['now', 'base', 'other'].map((side) => path.join(dir, side));
  fs.writeFileSync(n ?? '', now);
  fs.writeFileSync(a ?? '', base);
  fs.writeFileSync(b ?? '', other);
  try {
    return execFileSync('git', ['merge-file', '-p', n ?? '', a ?? '', b ?? ''], { encoding: 'utf8' });
  } catch {
    return undefined;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What each file must end as (absent: deleted), and which conflict; a file outside `only` as it is now. */
function expected(before: Files, after: Files, now: Files, only: readonly string[]): { files: Files; conflicts: string[] } {
  const files: Files = new Map();
  const conflicts: string[] = [];
  for (const name of names) {
    const [b, a, n] = [before.get(name), after.get(name), now.get(name)];
    if (only.length > 0 && !only.includes(name)) {
      if (n !== undefined) files.set(name, n);
      continue;
    }
    let result: string | undefined;
    if (a === n) result = b;
    else if (b === a || b === n) result = n;
    else if (a !== undefined && b !== undefined && n !== undefined) {
      result = mergeFile(n, a, b);
      if (result === undefined) conflicts.push(name);
    } else conflicts.push(name);
    const kept = conflicts.includes(name) ? n : result;
    if (kept !== undefined) files.set(name, kept);
  }
  return { files, conflicts: conflicts.sort() };
}

describe('rewind revert (property)', () => {
  it('each file ends as git merge-file of the step taken back says; conflicts exactly where it cannot', async () => {
    let project = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ steps, after, revert, only }) => {
        project += 1;
        const root = sb.repo(`p${project}`);
        const engine = sb.open(root);
        const ids: number[] = [];
        const states: Files[] = [];
        for (const [index, ops] of steps.entries()) {
          states.push(read(root));
          ids.push((await engine.snapshot({ trigger: 'PreToolUse:Edit', label: `step ${index}` })).record.id);
          for (const each of ops) apply(root, each);
        }
        states.push(read(root));
        await engine.snapshot({ trigger: 'PreToolUse:Edit', label: 'end' });
        for (const each of after) apply(root, each);
        const k = revert % steps.length;
        const now = read(root);
        const want = expected(states[k] ?? new Map(), states[k + 1] ?? new Map(), now, only);
        const stepChanged = names.some((name) => (only.length === 0 || only.includes(name)) && states[k]?.get(name) !== states[k + 1]?.get(name));
        const changes = names.some((name) => want.files.get(name) !== now.get(name));
        const reverting = engine.revert(ids[k] ?? 0, { conflicts: 'keep', only });
        if (!stepChanged) {
          await expect(reverting).rejects.toThrow(/changed no files/);
          return;
        }
        if (!changes) {
          await expect(reverting).rejects.toThrow(/changes no files now/);
          return;
        }
        const result = await reverting;
        expect(result.plan.conflicts.map((conflict) => conflict.path).sort()).toEqual(want.conflicts);
        expect(read(root)).toEqual(want.files);
        await engine.redo();
        expect(read(root)).toEqual(now);
      }),
      { numRuns: runs },
    );
  }, 600_000);
});
