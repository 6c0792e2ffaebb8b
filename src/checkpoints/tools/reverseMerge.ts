import fs from 'node:fs';
import path from 'node:path';
import { runGit, text } from '../git/git.js';
import type { Engine } from '../snapshot/engine.js';
import { MissingObjectError } from '../restore/errors.js';

/** The paths the step changed (within `--only`), each as it was before the step, after it and now (absent: no file there). */
export interface ReverseMergeInput {
  paths: ReadonlyMap<string, { before?: Entry; after?: Entry; now?: Entry }>;
  /** The conflict markers' name for the files as they were before the step (`before-#5`). */
  beforeLabel: string;
}

/** A file as a tree holds it. */
export interface Entry {
  mode: string;
  oid: string;
}

/** What taking the step back does to one path: its entry afterwards (undefined: no file there). */
export interface Settled {
  path: string;
  result: Entry | undefined;
  /** Already as the revert leaves it: nothing to write. */
  unchanged: boolean;
  /** `restored`: as before the step; `merged`: changed later too, merged line by line; `deleted`: the step created it; `created`: the step deleted it. */
  how: 'restored' | 'merged' | 'deleted' | 'created';
  /** What the files now hold there. */
  now: Entry | undefined;
}

/**
 * A path the step and a later change (a later step, an edit since) both changed so that it
 * cannot be settled. `content`: the same lines (the hunks git marked); `binary`: git cannot
 * merge it line by line (binary, symlink, submodule, a mode changed both ways);
 * `created-then-changed`: the step created it and it was changed since (taking the step back
 * would delete that work); `changed-then-deleted`: the step changed it, it was deleted
 * since; `deleted-then-created`: the step deleted it, it was created again since with other
 * bytes; `other`: a file on one side, a folder on another.
 */
export interface MergeConflict {
  path: string;
  kind: 'content' | 'binary' | 'created-then-changed' | 'changed-then-deleted' | 'deleted-then-created' | 'other';
  /** What `--conflicts markers` leaves there (undefined: no file). */
  marked: Entry | undefined;
  /** What the files now hold there. */
  now: Entry | undefined;
  /** The conflicting hunks as git marked them (text conflicts). */
  hunks: string[];
}

export interface ReverseMerge {
  settled: Settled[];
  conflicts: MergeConflict[];
}

const regular = new Set(['100644', '100755']);
export const same = (x: Entry | undefined, y: Entry | undefined): boolean => (x === undefined ? y === undefined : y !== undefined && x.mode === y.mode && x.oid === y.oid);

/** git's own test for a binary file: a NUL byte in the first 8000. */
function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}

/**
 * Takes the step back onto the files now, path by path over the paths the step changed (a
 * path it did not change is never touched, so a rename is its two paths: the old name comes
 * back, the new one goes unless changed since). For each: the files now as after the step:
 * back as before it; already as before it: as it is; changed by both: git's own three-way
 * file merge (`git merge-file`, the step's end as the base), clean or a conflict with its
 * markers; and what no line merge can settle is a conflict. Writes merged blobs to the
 * shadow repository; touches nothing in the project. `scratch`: an empty folder.
 */
export async function reverseMerge(engine: Engine, input: ReverseMergeInput, scratch: string): Promise<ReverseMerge> {
  const reader = engine.repo.objectReader(true);
  const blob = async (entry: Entry, file: string): Promise<Buffer> => {
    const read = await reader.read(entry.oid);
    if ('missing' in read) throw new MissingObjectError(entry.oid, file);
    return read.data;
  };
  const settled: Settled[] = [];
  const conflicts: MergeConflict[] = [];
  const settle = (file: string, result: Entry | undefined, a: Entry | undefined, n: Entry | undefined): void => {
    const how = result === undefined ? 'deleted' : n === undefined ? 'created' : same(a, n) ? 'restored' : 'merged';
    settled.push({ path: file, result, unchanged: same(result, n), how, now: n });
  };
  try {
    for (const [file, { before: b, after: a, now: n }] of input.paths) {
      if (same(a, n)) settle(file, b, a, n);
      else if (same(b, n)) settle(file, n, a, n);
      else if ([b, a, n].some((entry) => entry?.mode === '040000')) conflicts.push({ path: file, kind: 'other', marked: n, now: n, hunks: [] });
      else if (!b && a && n) conflicts.push({ path: file, kind: 'created-then-changed', marked: n, now: n, hunks: [] });
      else if (b && a && !n) conflicts.push({ path: file, kind: 'changed-then-deleted', marked: b, now: n, hunks: [] });
      else if (b && n && [b, n, ...(a ? [a] : [])].every((entry) => regular.has(entry.mode))) {
        // A file made again since keeps the mode it was made with.
        const mode = !a ? n.mode : a.mode === n.mode ? b.mode : b.mode === a.mode ? n.mode : b.mode === n.mode ? n.mode : undefined;
        const sides = { now: await blob(n, file), base: a ? await blob(a, file) : Buffer.alloc(0), other: await blob(b, file) };
        const kind = a ? 'content' : 'deleted-then-created';
        if (mode === undefined || Object.values(sides).some(isBinary)) {
          conflicts.push({ path: file, kind: mode === undefined ? 'binary' : a ? 'binary' : 'deleted-then-created', marked: n, now: n, hunks: [] });
          continue;
        }
        const merged = await mergeFile(engine, sides, input.beforeLabel, scratch);
        const entry = { mode, oid: merged.oid };
        if (merged.clean) settle(file, entry, a, n);
        else conflicts.push({ path: file, kind, marked: entry, now: n, hunks: markedHunks(merged.text) });
      } else conflicts.push({ path: file, kind: !a ? 'deleted-then-created' : 'binary', marked: n, now: n, hunks: [] });
    }
  } finally {
    await reader.close();
  }
  return { settled, conflicts };
}

/** `git merge-file` of the three versions (the step's end the base), the result written to the shadow repo. */
async function mergeFile(engine: Engine, sides: { now: Buffer; base: Buffer; other: Buffer }, beforeLabel: string, scratch: string): Promise<{ clean: boolean; oid: string; text: string }> {
  const files = { now: path.join(scratch, 'now'), base: path.join(scratch, 'base'), other: path.join(scratch, 'other') };
  for (const side of ['now', 'base', 'other'] as const) fs.writeFileSync(files[side], sides[side]);
  // In the shadow repository: its config, never that of a repository the scratch folder is in.
  const merged = await runGit([`--git-dir=${engine.repo.gitDir}`, 'merge-file', '-p', '-L', 'now', '-L', 'after the step', '-L', beforeLabel, files.now, files.base, files.other], {
    cwd: scratch,
    env: engine.repo.env,
    okCodes: Array.from({ length: 128 }, (_, code) => code),
  });
  const oid = text(await engine.repo.git(['hash-object', '-w', '--stdin'], { input: merged.stdout }));
  return { clean: merged.code === 0, oid, text: merged.stdout.toString('utf8') };
}

/** The regions git marked: from a `<<<<<<< ` line through its `>>>>>>> ` line. */
export function markedHunks(content: string): string[] {
  const hunks: string[] = [];
  let open: string[] | undefined;
  for (const line of content.split('\n')) {
    if (line.startsWith('<<<<<<< ')) open = [];
    if (open) open.push(line);
    if (open && line.startsWith('>>>>>>> ')) {
      hunks.push(open.join('\n'));
      open = undefined;
    }
  }
  return hunks;
}
