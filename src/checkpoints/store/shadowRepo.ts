import fs from 'node:fs';
import path from 'node:path';
import { ObjectReader } from '../git/catFile.js';
import { runGit, runGitSync, startProcess, type RunOptions, type RunResult, type StartedProcess } from '../git/git.js';
import { shadowGitEnv, shadowIdentity } from '../git/gitEnv.js';
import type { Project } from '../git/project.js';
import type { StorePaths } from './store.js';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/**
 * The private bare repository that holds a project's checkpoints. Its work tree is the
 * project (passed on every call); its objects borrow the project's own store through
 * alternates, so committed content is never copied.
 */
export class ShadowRepo {
  readonly gitDir: string;
  readonly env: Record<string, string>;

  constructor(
    readonly store: StorePaths,
    readonly project: Project,
    readonly sourceEnv: NodeJS.ProcessEnv = process.env,
  ) {
    this.gitDir = store.repo;
    this.env = shadowGitEnv(sourceEnv);
  }

  /** The argv prefix that points git at the shadow with the project as work tree. */
  get baseArgs(): string[] {
    return [`--git-dir=${this.gitDir}`, `--work-tree=${this.project.root}`];
  }

  /** `git <args>` on the shadow with the project as its work tree. */
  git(args: readonly string[], options: Partial<RunOptions> = {}): Promise<RunResult> {
    return runGit([...this.baseArgs, ...args], { cwd: this.project.root, env: this.env, ...options });
  }

  /** `git` as above, run to its end synchronously (runGitSync: a command with nothing else to do, never the app). */
  gitSync(args: readonly string[], options: Partial<Omit<RunOptions, 'onStdout'>> = {}): RunResult {
    return runGitSync([...this.baseArgs, ...args], { cwd: this.project.root, env: this.env, ...options });
  }

  /** `git <args>` on the shadow alone (refs, objects, gc): no work tree, run in the store. */
  storeGit(args: readonly string[], options: Partial<RunOptions> = {}): Promise<RunResult> {
    return runGit([`--git-dir=${this.gitDir}`, ...args], { cwd: this.store.root, env: this.env, ...options });
  }

  /**
   * `git diff-tree <args>` of trees alone (names, modes, ids: no content, so no attributes):
   * git reads the index for every diff-tree though such a diff needs none of it (at 50,000
   * files 11 ms, growing with the project), so it is pointed at one that does not exist.
   * snapshot.sh's diffs do the same (lib.sh `treediff`).
   */
  treeDiff(args: readonly string[], options: Partial<RunOptions> = {}): Promise<RunResult> {
    return this.git(['diff-tree', ...args], { ...options, env: this.treeDiffEnv });
  }

  /** treeDiff, synchronously (gitSync). */
  treeDiffSync(args: readonly string[], options: Partial<Omit<RunOptions, 'onStdout'>> = {}): RunResult {
    return this.gitSync(['diff-tree', ...args], { ...options, env: this.treeDiffEnv });
  }

  private get treeDiffEnv(): Record<string, string> {
    return { ...this.env, GIT_INDEX_FILE: path.join(this.gitDir, 'no-index-for-tree-diffs') };
  }

  /** `storeGit` started now, given its input later (StartedProcess.finish): git starts up while the caller prepares it. */
  startStoreGit(args: readonly string[]): StartedProcess {
    return startProcess('git', [`--git-dir=${this.gitDir}`, ...args], { cwd: this.store.root, env: this.env });
  }

  /** A long-lived reader of the shadow's objects (`withContents` false: only looks them up). */
  objectReader(withContents: boolean): ObjectReader {
    return new ObjectReader([`--git-dir=${this.gitDir}`], { cwd: this.store.root, env: this.env }, withContents);
  }

  get indexFile(): string {
    return path.join(this.gitDir, 'index');
  }

  exists(): boolean {
    return fs.existsSync(path.join(this.gitDir, 'HEAD'));
  }
}

function configText(store: StorePaths): string {
  const hooks = store.noHooks;
  const empty = store.empty;
  return `[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = true
\tsymlinks = true
\tignorecase = false
\tlogAllRefUpdates = false
\tautocrlf = false
\tsafecrlf = false
\tfsmonitor = false
\tuntrackedCache = true
\tsplitIndex = true
\tsharedRepository = 0600
\tquotePath = false
\thooksPath = ${quote(hooks)}
\texcludesFile = ${quote(empty)}
\tattributesFile = ${quote(empty)}
[index]
\tversion = 4
[user]
\tname = ${shadowIdentity.name}
\temail = ${shadowIdentity.email}
[commit]
\tgpgSign = false
[tag]
\tgpgSign = false
[gc]
\tautoDetach = true
\treflogExpire = never
[maintenance]
\tauto = false
[advice]
\taddEmbeddedRepo = false
\taddIgnoredFile = false
\tdetachedHead = false
[submodule]
\trecurse = false
[diff]
\trenames = false
`;
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Writes the shadow repo's config (all of it is Rewind's own: rewritten whole if damaged). */
export function writeShadowConfig(repo: ShadowRepo): void {
  writeFileAtomic(path.join(repo.gitDir, 'config'), configText(repo.store));
}

/** Points the shadow at the project's object store (worktree- and submodule-aware). */
export function linkAlternates(repo: ShadowRepo): void {
  const file = path.join(repo.gitDir, 'objects', 'info', 'alternates');
  if (!repo.project.git) {
    fs.rmSync(file, { force: true });
    return;
  }
  const objects = path.join(repo.project.git.commonDir, 'objects');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${objects}\n`, { mode: 0o600 });
}
