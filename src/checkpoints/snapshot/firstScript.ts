import { shellWord } from '../../shared/shellWord.js';
import fs from 'node:fs';
import { startProcess, splitNul, type RunResult } from '../git/git.js';
import { envArguments, projectGitOptions } from '../git/gitEnv.js';
import { projectConfigQuery } from '../git/projectConfig.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import { scriptBody, stagedCounter, type ScriptInput } from './snapshotScript.js';
import type { HeavyScanFiles } from './heavyScan.js';


/**
 * The first snapshot's script, started before the engine knows its arguments: starting a
 * process blocks Node for 8-15 ms here, and the engine has the store to create and the
 * index to seed meanwhile. With the user's own git in the project (`"$@"`: its
 * environment as NAME=VALUE entries for `env -i`) it answers the config query on fd 3,
 * then (in a git project) lists the project's untracked files as `git status` sees them
 * into `$walk`, on the core the engine leaves idle: the files the add then does not take
 * are the only ones that can be heavy. Then it reads one line of arguments ('-' for
 * empty); the rest of stdin is the commit message. No line: it exits 9, having touched
 * nothing. It never exits before the listing is complete.
 */
const waitingScript = `
umask 077
gd=$1 wt=$2 scanstd=$3 scanout=$4 walk=$5 nestedfiles=$6 nestedspecfile=$7 sametree= robust= nestedlist= nestedspec=
shift 7
env -i "$@" git ${[...projectGitOptions, ...projectConfigQuery].map(shellWord).join(' ')} >&3 2>/dev/null </dev/null
exec 3>&-
if [ -n "$walk" ]; then
  env -i "$@" git ${projectGitOptions.map(shellWord).join(' ')} ls-files -o -z --exclude-standard >"$walk" 2>/dev/null </dev/null & walker=$!
  trap 'wait "$walker"' EXIT
fi
read -r prev prevtree ref mode diff list diffto listed nested || exit 9
[ "$nested" != 1 ] || nestedlist=$nestedfiles nestedspec=$nestedspecfile
[ "$prev" != - ] || prev=
[ "$prevtree" != - ] || prevtree=
[ "$diffto" != - ] || diffto=
# When the seeded index holds every tracked file (listed=1): the tracked files (no walk),
# then the untracked ones listed ahead (a file created in the few ms between the listing
# and the add waits for the next checkpoint, as one created just after an add -A would). Exit 1 with only "...ignored..." means listed files
# the shadow's own rules leave out (heavy ones). Anything else (the listing failed, a listed
# file went away meanwhile): the full walk.
stage() {
  if [ "$listed" != 1 ] || [ -z "$walk" ]; then gadd -A -v; return; fi
  gadd -u -v || return
  wait "$walker" || { gadd -A -v; return; }
  [ -s "$walk" ] || return 0
  exec 4>&1
  err=$(g --literal-pathspecs add -v --pathspec-from-file="$walk" --pathspec-file-nul 2>&1 >&4 </dev/null)
  code=$?
  exec 4>&-
  [ "$code" != 0 ] || return 0
  if [ "$code" = 1 ]; then
    case "$err" in "The following paths are ignored by one of your .gitignore files:"*) return 0 ;; esac
  fi
  gadd -A -v
}
${scriptBody}`;

/** The first snapshot's script, running, waiting for its arguments. */
export interface FirstScript {
  /** The project's `git config` answer (undefined: none within 10 s). */
  config: Promise<Buffer | undefined>;
  /** Gives it its arguments and waits for the snapshot (what runSnapshotScript resolves to). */
  run(input: ScriptInput, timeoutMs?: number): Promise<RunResult>;
  /** The project's untracked files, listed ahead (undefined: not a git project, or unread). */
  untracked(): string[] | undefined;
  /** Lets it exit without doing anything (resolves once it has); after a run, only cleans up. */
  cancel(): Promise<void>;
}

/**
 * Starts the first snapshot's script. In a plain folder (nothing to list ahead with) the
 * walk for heavy files runs beside the add instead, writing to `scan.result`.
 */
export function startFirstScript(repo: ShadowRepo, projectEnv: Record<string, string>, scan: Pick<HeavyScanFiles, 'standardExclude' | 'result'>): FirstScript {
  const walk = repo.project.git ? `${scan.result}.untracked` : '';
  const inScript = walk ? { standardExclude: '', result: '' } : scan;
  const args = ['-c', waitingScript, 'rewind-snapshot', repo.gitDir, repo.project.root, inScript.standardExclude, inScript.result, walk, repo.store.nestedList, repo.store.nestedPathspec, ...envArguments(projectEnv)];
  const started = startProcess('sh', args, { cwd: repo.project.root, env: repo.env, fd3: true });
  let given = false;
  const config = Promise.race([started.fd3, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref())]);
  return {
    config,
    run(input, timeoutMs) {
      const fields = [input.prevCommit, input.prevTree, input.ref, input.mode, input.diff ? '1' : '0', input.list ? '1' : '0', input.diffTo, input.trackedThenListed ? '1' : '0', input.nested ? '1' : '0'];
      const line = fields.map((field) => field || '-');
      if (line.some((field) => /\s/.test(field))) throw new Error(`snapshot arguments with white space: ${line.join(' ')}`);
      given = true;
      return started.finish({ input: `${line.join(' ')}\n${input.message}`, timeoutMs, onStdout: stagedCounter(input.onStaged) });
    },
    untracked() {
      if (!walk) return undefined;
      try {
        return splitNul(fs.readFileSync(walk));
      } catch {
        return undefined;
      } finally {
        fs.rmSync(walk, { force: true });
      }
    },
    async cancel() {
      if (!given) {
        given = true;
        await started.finish({ okCodes: [9] }).catch(() => undefined);
      }
      // Also after a run that failed before its listing was read.
      if (walk) fs.rmSync(walk, { force: true });
    },
  };
}
