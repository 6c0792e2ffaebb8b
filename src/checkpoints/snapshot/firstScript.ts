import fs from 'node:fs';
import { startProcess, splitNul, type RunResult } from '../git/git.js';
import { envArguments, projectGitOptions } from '../git/gitEnv.js';
import { projectConfigQuery } from '../git/projectConfig.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import { engineScript } from '../../shared/bundles.js';
import { stagedCounter, type ScriptInput } from './snapshotScript.js';
import type { HeavyScanFiles } from './heavyScan.js';


/**
 * The first snapshot's script (scripts/first-snapshot.sh), started before the engine knows
 * its arguments: starting a process blocks Node for 8-15 ms here, and the engine has the
 * store to create and the index to seed meanwhile. It answers the project's config query on
 * fd 3 and (in a git project) lists the untracked files ahead, then waits for one line of
 * arguments.
 */
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
  const words = (list: readonly string[]) => list.join('\n');
  const args = [
    engineScript('first-snapshot.sh'),
    repo.gitDir,
    repo.project.root,
    inScript.standardExclude,
    inScript.result,
    walk,
    repo.store.nestedList,
    repo.store.nestedPathspec,
    words(projectGitOptions),
    words(projectConfigQuery),
    repo.store.includeList,
    ...envArguments(projectEnv),
  ];
  const started = startProcess('sh', args, { cwd: repo.project.root, env: repo.env, fd3: true });
  let given = false;
  const config = Promise.race([started.fd3, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref())]);
  return {
    config,
    run(input, timeoutMs) {
      const fields = [input.prevCommit, input.prevTree, input.ref, input.mode, input.diff ? '1' : '0', input.list ? '1' : '0', input.diffTo, input.trackedThenListed ? '1' : '0', input.nested ? '1' : '0', input.include ? '1' : '0'];
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
