import { createRequire } from 'node:module';
import type { SimpleGit, simpleGit as SimpleGitFactory } from 'simple-git';
import { defaultGitTimeoutMs, GitError, programMissing } from '../git/git.js';
import type { ShadowRepo } from './shadowRepo.js';

/**
 * simple-git for the engine's one-off questions to the shadow repo (the refs listed when the
 * checkpoint list is rebuilt): plain data back, errors as ours. The snapshot and restore hot
 * paths stay batched plumbing (snapshotScript.ts, catFile.ts), and simple-git is loaded only
 * when first asked.
 * Its environment is the shadow's allowlist (gitEnv.ts), never `process.env`; calls are
 * serialised (one index, one process at a time); it does not wait after git exits.
 * Required (it is CommonJS) from node_modules when first asked, never bundled: the app's
 * bundle runs as a vm script, which cannot import() on Node 20, and what every session or
 * hook process reads stays smaller.
 */
export async function shadowGitClient(repo: ShadowRepo): Promise<SimpleGit> {
  const { simpleGit } = createRequire(import.meta.url)('simple-git') as { simpleGit: typeof SimpleGitFactory };
  return simpleGit({
    baseDir: repo.store.root,
    maxConcurrentProcesses: 1,
    trimmed: false,
    timeout: { block: defaultGitTimeoutMs },
    completion: { onClose: true, onExit: false },
    // GIT_CONFIG_GLOBAL=/dev/null is how the user's config is kept out, and GIT_CONFIG_COUNT
    // (core.fsmonitor=false, core.hooksPath=/dev/null) how programs are (gitEnv.ts).
    unsafe: { allowUnsafeConfigPaths: true, allowUnsafeConfigEnvCount: true, allowUnsafeFsMonitor: true, allowUnsafeHooksPath: true },
  }).env({ ...repo.env, GIT_DIR: repo.gitDir });
}

/** `git <args>` through a client, stdout as text; a failure is a GitError, git missing a UserError. */
export async function gitText(client: SimpleGit, args: readonly string[]): Promise<string> {
  try {
    return await client.raw([...args]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || /spawn git ENOENT/.test(String(error))) throw programMissing('git', error);
    throw new GitError(args, null, error instanceof Error ? error.message : String(error));
  }
}
