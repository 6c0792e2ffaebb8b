import { runProcess, type RunResult } from './git.js';
import type { ShadowRepo } from './shadowRepo.js';

/**
 * One snapshot in one spawned process: every git process Node starts costs ~7 ms before
 * it does anything, so the plumbing steps run from a single `sh` (exit codes say which
 * step failed). In parallel with `add -A`, a walk lists untracked files that the
 * project's own rules do not ignore, to report the ones the heavy patterns leave out.
 */
const script = String.raw`
gd=$1 wt=$2 prev=$3 prevtree=$4 ref=$5 walk=$6 std=$7 mode=$8
g() { git --git-dir="$gd" --work-tree="$wt" "$@"; }
if [ -n "$walk" ]; then
  g ls-files -o -z --exclude-per-directory=.gitignore --exclude-from="$std" >"$walk" 2>/dev/null </dev/null &
  walker=$!
fi
g add -A </dev/null || { [ -n "$walk" ] && wait $walker; exit 10; }
[ -n "$walk" ] && wait $walker
tree=$(g write-tree </dev/null) || exit 11
if [ "$tree" = "$prevtree" ]; then
  [ "$mode" = tree ] || g update-ref "$ref" "$prev" </dev/null || exit 13
  printf 'same %s\n' "$tree"; exit 0
fi
if [ "$mode" = tree ]; then printf 'tree %s -\n' "$tree"
else
  if [ -n "$prev" ]; then commit=$(g commit-tree -p "$prev" "$tree") || exit 12
  else commit=$(g commit-tree "$tree") || exit 12; fi
  g update-ref "$ref" "$commit" </dev/null || exit 13
  printf 'new %s %s\n' "$tree" "$commit"
fi
from=$prevtree; [ -n "$from" ] || from=4b825dc642cb6eb9a060e54bf8d69288fbee4904
g diff-tree -r -z --no-renames --raw "$from" "$tree" </dev/null || printf 'diff-failed\n'
`;

/** Which plumbing step failed, by the script's exit code. */
export const scriptSteps: Record<number, string> = { 10: 'add', 11: 'write-tree', 12: 'commit-tree', 13: 'update-ref' };

export interface ScriptInput {
  prevCommit?: string;
  prevTree?: string;
  ref: string;
  /** Where the walk writes its NUL-separated list; no walk when absent. */
  walkFile?: string;
  standardExclude: string;
  /** `tree`: stage and write the tree only (what the work tree is now), no commit or ref. */
  mode: 'commit' | 'tree';
  message: string;
}

export type ScriptOutput =
  | { kind: 'same'; tree: string }
  | { kind: 'new'; tree: string; commit: string | undefined; diff: Buffer | undefined };

export function runSnapshotScript(repo: ShadowRepo, input: ScriptInput, timeoutMs?: number): Promise<RunResult> {
  const args = [
    '-c',
    script,
    'rewind-snapshot',
    repo.gitDir,
    repo.project.root,
    input.prevCommit ?? '',
    input.prevTree ?? '',
    input.ref,
    input.walkFile ?? '',
    input.standardExclude,
    input.mode,
  ];
  return runProcess('sh', args, { cwd: repo.project.root, env: repo.env, input: input.message, timeoutMs });
}

export function parseScriptOutput(stdout: Buffer): ScriptOutput {
  const firstNewline = stdout.indexOf(0x0a);
  const first = stdout.subarray(0, firstNewline < 0 ? stdout.length : firstNewline).toString('utf8').split(' ');
  if (first[0] === 'same' && first[1]) return { kind: 'same', tree: first[1] };
  if ((first[0] === 'new' || first[0] === 'tree') && first[1] && first[2]) {
    const rest = stdout.subarray(firstNewline + 1);
    const failed = rest.toString('utf8').endsWith('diff-failed\n');
    return { kind: 'new', tree: first[1], commit: first[0] === 'new' ? first[2] : undefined, diff: failed ? undefined : rest };
  }
  throw new Error(`unexpected snapshot output: ${stdout.toString('utf8').slice(0, 200)}`);
}
