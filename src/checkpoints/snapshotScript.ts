import { runProcess, type RunResult } from './git.js';
import type { ShadowRepo } from './shadowRepo.js';

/**
 * One snapshot in one spawned process: every git process Node starts costs ~7 ms before
 * it does anything, so the plumbing steps run from a single `sh` (exit codes say which
 * step failed). `add -v` names every path it staged or removed, which is how the engine
 * learns what changed without another diff; the tree diff runs only when asked for.
 */
const script = `
gd=$1 wt=$2 prev=$3 prevtree=$4 ref=$5 mode=$6 diff=$7 list=$8
g() { git --git-dir="$gd" --work-tree="$wt" "$@"; }
g add -A -v </dev/null || exit 10
printf '\\001rewind\\001\\n'
tree=$(g write-tree </dev/null) || exit 11
if [ "$tree" = "$prevtree" ]; then
  [ "$mode" = tree ] || g update-ref "$ref" "$prev" </dev/null || exit 13
  printf 'same %s -\\n' "$tree"; exit 0
fi
if [ "$mode" = tree ]; then printf 'tree %s -\\n' "$tree"
else
  if [ -n "$prev" ]; then commit=$(g commit-tree -p "$prev" "$tree") || exit 12
  else commit=$(g commit-tree "$tree") || exit 12; fi
  g update-ref "$ref" "$commit" </dev/null || exit 13
  printf 'new %s %s\\n' "$tree" "$commit"
fi
if [ "$diff" = 1 ]; then
  from=$prevtree; [ -n "$from" ] || from=4b825dc642cb6eb9a060e54bf8d69288fbee4904
  g diff-tree -r -z --no-renames --raw "$from" "$tree" </dev/null || printf 'diff-failed\\n'
fi
if [ "$list" = 1 ]; then
  printf '\\001list\\001\\n'
  g ls-tree -r -l -z --full-tree "$tree" </dev/null || exit 14
fi
`;

const separator = Buffer.from('\x01rewind\x01\n');

/** Which plumbing step failed, by the script's exit code. */
export const scriptSteps: Record<number, string> = { 10: 'add', 11: 'write-tree', 12: 'commit-tree', 13: 'update-ref', 14: 'ls-tree' };

export interface ScriptInput {
  prevCommit?: string;
  prevTree?: string;
  ref: string;
  /** `tree`: stage and write the tree only (what the work tree is now), no commit or ref. */
  mode: 'commit' | 'tree';
  /** Also print the raw tree diff from prevTree (needed when the index had drifted). */
  diff: boolean;
  /** Also list the whole new tree with sizes (the first snapshot checks every file). */
  list: boolean;
  message: string;
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
}

const listSeparator = Buffer.from('\x01list\x01\n');

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

export function runSnapshotScript(repo: ShadowRepo, input: ScriptInput, timeoutMs?: number): Promise<RunResult> {
  const args = ['-c', script, 'rewind-snapshot', repo.gitDir, repo.project.root, input.prevCommit ?? '', input.prevTree ?? '', input.ref, input.mode, input.diff ? '1' : '0', input.list ? '1' : '0'];
  return runProcess('sh', args, { cwd: repo.project.root, env: repo.env, input: input.message, timeoutMs });
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

export function parseScriptOutput(stdout: Buffer): ScriptOutput {
  const at = stdout.indexOf(separator);
  if (at < 0) throw new Error(`unexpected snapshot output: ${stdout.toString('utf8').slice(0, 200)}`);
  const staged = parseStaged(stdout.subarray(0, at).toString('utf8'));
  const rest = stdout.subarray(at + separator.length);
  const newline = rest.indexOf(0x0a);
  const [kind, tree, commit] = rest.subarray(0, newline < 0 ? rest.length : newline).toString('utf8').split(' ');
  if ((kind !== 'same' && kind !== 'tree' && kind !== 'new') || !tree) {
    throw new Error(`unexpected snapshot output: ${rest.toString('utf8').slice(0, 200)}`);
  }
  let diffBytes = newline < 0 ? Buffer.alloc(0) : rest.subarray(newline + 1);
  let listing: Buffer | undefined;
  const listAt = diffBytes.indexOf(listSeparator);
  if (listAt >= 0) {
    listing = diffBytes.subarray(listAt + listSeparator.length);
    diffBytes = diffBytes.subarray(0, listAt);
  }
  const failed = diffBytes.toString('utf8').endsWith('diff-failed\n');
  return {
    kind,
    tree,
    commit: kind === 'new' ? commit : undefined,
    staged,
    diff: failed || diffBytes.length === 0 ? undefined : diffBytes,
    listing,
  };
}
