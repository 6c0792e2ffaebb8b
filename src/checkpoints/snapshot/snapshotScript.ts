import { runProcess, type RunResult } from '../git/git.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import { engineScript } from '../../shared/bundles.js';
import type { HeavyScanFiles } from './heavyScan.js';

/** Which plumbing step failed, by the script's exit code. */
export const scriptSteps: Record<number, string> = { 10: 'add', 11: 'write-tree', 12: 'commit-tree', 13: 'update-ref', 14: 'ls-tree', 15: 'fast-import' };

export interface ScriptInput {
  /** Stops the script and its git once aborted. */
  signal?: AbortSignal;
  prevCommit?: string;
  prevTree?: string;
  ref: string;
  /** `tree`: stage and write the tree only (what the work tree is now), no commit or ref;
   * `changed`: like `commit`, but an unchanged tree gets no ref (no new checkpoint). */
  mode: 'commit' | 'tree' | 'changed';
  /** Also print the raw tree diff from prevTree (needed when the index had drifted). */
  diff: boolean;
  /** Also list the whole new tree with sizes (the first snapshot checks every file). */
  list: boolean;
  /** Also diff the resulting tree against this one (what a restore to it changes). */
  diffTo?: string;
  /** In `changed` mode, a tree that also counts as unchanged (the files as a restore left them). */
  sameTree?: string;
  /** Stage only these paths (scope.ts): the file of the pathspecs of those that exist (`-`:
   * none), of those that are gone, and of the plain files among them when that is all they are. */
  scope?: {
    add: string;
    gone?: string;
    files?: string;
    /** Staged without the shadow index (scope.ts writeWithoutIndex): the files are hashed
     * (`hash-object -w`, as add would) and one fast-import makes the commit from
     * the previous one; write-tree, which reads the whole index, does not run. */
    withoutIndex?: { head: string; blobs: string; modes: string; ids: string };
  };
  /** Stage without walking the tree with add -A (see the script): the file the untracked list goes to. */
  robustList?: string;
  /** Nested repositories in the index to keep the add out of (see the script): the files
   * that list them (store.nestedList, store.nestedPathspec); undefined: none. */
  nested?: { list: string; pathspec: string };
  /** The first script may stage tracked files, then the untracked ones it listed (see
   * SnapshotRequest.trackedThenListed); every other run walks the tree with `add -A`. */
  trackedThenListed?: boolean;
  /** The file listing the ignored files checkpoint_include adds (includeFiles.ts); undefined: none. */
  include?: string;
  /** Once the checkpoint is written, the script starts the background walk for heavy files
   * with these files (heavyScan.ts), detached; undefined: none. */
  heavyScan?: HeavyScanFiles;
  message: string;
  /** Told the count of files staged so far, as the add goes (progress). */
  onStaged?: (files: number) => void;
}

/** A path `git add -v` staged (`add`) or dropped (`remove`). */
export interface StagedPath {
  action: 'add' | 'remove';
  path: string;
}

export interface ScriptOutput {
  kind: 'same' | 'tree' | 'new';
  tree: string;
  commit?: string;
  staged: StagedPath[];
  /** The raw diff when asked for; undefined when not asked or when it failed. */
  diff?: Buffer;
  /** The whole tree when asked for (`ls-tree -r -l -z`). */
  listing?: Buffer;
  /** The raw diff to `diffTo` when asked for; undefined when it failed (missing objects). */
  toTarget?: Buffer;
  /** Staged without the shadow index (ScriptInput scope.withoutIndex): the index is behind on those paths. */
  withoutIndex: boolean;
}


/** An entry of `ls-tree -r -l -z`. */
export interface TreeEntry {
  mode: string;
  oid: string;
  size: number;
  path: string;
}

/**
 * The entries of `ls-tree -r -l -z` (`<mode> <type> <oid> <size padded>\t<path>`) that the
 * first snapshot must act on: regular files over `maxBytes`, and gitlinks. Tens of
 * thousands of records are scanned without building an object for each.
 */
export function scanTreeListing(listing: Buffer, maxBytes: number): { count: number; entries: TreeEntry[] } {
  const text = listing.toString('utf8');
  const entries: TreeEntry[] = [];
  let count = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\0', start);
    if (end < 0) end = text.length;
    const tab = text.indexOf('\t', start);
    if (tab > start && tab < end) {
      count++;
      const mode = text.slice(start, start + 6);
      const sizeStart = text.lastIndexOf(' ', tab) + 1;
      const size = Number(text.slice(sizeStart, tab));
      const regular = mode === '100644' || mode === '100755';
      if ((regular && size > maxBytes) || mode === '160000') {
        const oid = text.slice(start, tab).split(/ +/)[2] ?? '';
        entries.push({ mode, oid, size: regular ? size : 0, path: text.slice(tab + 1, end) });
      }
    }
    start = end + 1;
  }
  return { count, entries };
}

/**
 * One snapshot in one spawned process (scripts/snapshot.sh): every git process Node starts
 * costs ~7 ms before it does anything, so the plumbing steps run from a single `sh` (exit
 * codes say which step failed).
 */
export function runSnapshotScript(repo: ShadowRepo, input: ScriptInput, timeoutMs?: number): Promise<RunResult> {
  const args = [
    engineScript('snapshot.sh'),
    repo.gitDir,
    repo.project.root,
    input.prevCommit ?? '',
    input.prevTree ?? '',
    input.ref,
    input.mode,
    input.diff ? '1' : '0',
    input.list ? '1' : '0',
    input.diffTo ?? '',
    input.sameTree ?? '',
    input.robustList ?? '',
    input.nested?.list ?? '',
    input.nested?.pathspec ?? '',
    input.scope?.add ?? '',
    input.scope?.gone ?? '',
    input.include ?? '',
    input.scope?.files ?? '',
    input.heavyScan?.standardExclude ?? '',
    input.heavyScan?.result ?? '',
    input.heavyScan?.stamp ?? '',
    input.scope?.withoutIndex?.head ?? '',
    input.scope?.withoutIndex?.blobs ?? '',
    input.scope?.withoutIndex?.modes ?? '',
    input.scope?.withoutIndex?.ids ?? '',
  ];
  return runProcess('sh', args, { cwd: repo.project.root, env: repo.env, input: input.message, timeoutMs, onStdout: stagedCounter(input.onStaged), ...(input.signal ? { signal: input.signal } : {}) });
}

/**
 * Counts `add -v`'s lines as the script prints them (one a staged file; a name with a
 * newline counts twice: it is progress, not a result) until the first section marker,
 * telling `report` the running count after each chunk. Nothing when there is no `report`.
 */
export function stagedCounter(report: ((files: number) => void) | undefined): ((chunk: Buffer) => void) | undefined {
  if (!report) return undefined;
  let files = 0;
  let staging = true;
  return (chunk) => {
    if (!staging) return;
    const end = chunk.indexOf(0);
    const part = end < 0 ? chunk : chunk.subarray(0, end);
    for (let at = part.indexOf(10); at >= 0; at = part.indexOf(10, at + 1)) files++;
    if (end >= 0) staging = false;
    report(files);
  };
}

/**
 * `add 'path'` / `remove 'path'` lines. Paths are printed raw, not quoted, so a name with
 * a newline spans lines: a line that does not close its quote continues on the next.
 */
export function parseStaged(text: string): StagedPath[] {
  const staged: StagedPath[] = [];
  let pending: string | undefined;
  for (const line of text.split('\n')) {
    const candidate = pending === undefined ? line : `${pending}\n${line}`;
    const match = /^(add|remove) '(.*)'$/s.exec(candidate);
    if (match?.[1] && match[2] !== undefined) {
      staged.push({ action: match[1] as StagedPath['action'], path: match[2] });
      pending = undefined;
    } else {
      pending = /^(add|remove) '/.test(candidate) ? candidate : undefined;
    }
  }
  return staged;
}

/**
 * Splits the output at its section markers: a run of three or more NUL bytes, a lower-case
 * name, one NUL. Inside a section a NUL never follows a NUL (`-z` records are non-empty),
 * so a section that ends with its last record's NUL is followed by a run of four: the
 * section keeps that one.
 */
function sections(stdout: Buffer): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  let name = 'staged';
  let start = 0;
  for (;;) {
    let marker = stdout.indexOf(markerStart, start);
    if (marker < 0) {
      found.set(name, stdout.subarray(start));
      return found;
    }
    let run = marker + markerStart.length;
    while (stdout[run] === 0) run++;
    marker = run - markerStart.length;
    const close = stdout.indexOf(0, run);
    const label = close < 0 ? '' : stdout.subarray(run, close).toString('latin1');
    if (!/^[a-z]+$/.test(label)) throw new Error(`unexpected snapshot output: a damaged section marker at byte ${marker}`);
    found.set(name, stdout.subarray(start, marker));
    if (label === 'failed') found.set(`${name}-failed`, Buffer.alloc(0));
    name = label === 'failed' ? name : label;
    start = close + 1;
  }
}

const markerStart = Buffer.from([0, 0, 0]);

export function parseScriptOutput(stdout: Buffer): ScriptOutput {
  const parts = sections(stdout);
  const result = parts.get('result');
  if (!result) throw new Error(`unexpected snapshot output: ${stdout.toString('utf8').slice(0, 200)}`);
  const [kind, tree, commit] = result.toString('utf8').trim().split(' ');
  if ((kind !== 'same' && kind !== 'tree' && kind !== 'new') || !tree) {
    throw new Error(`unexpected snapshot output: ${result.toString('utf8').slice(0, 200)}`);
  }
  const usable = (name: string) => (parts.has(name) && !parts.has(`${name}-failed`) ? parts.get(name) : undefined);
  return {
    kind,
    tree,
    commit: kind === 'new' ? commit : undefined,
    staged: parseStaged((parts.get('staged') ?? Buffer.alloc(0)).toString('utf8')),
    diff: usable('diff'),
    listing: parts.get('list'),
    toTarget: usable('target'),
    withoutIndex: parts.has('noindex'),
  };
}
