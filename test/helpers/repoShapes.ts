// The shapes of repository that rewind must leave alone, built the same way for the
// snapshot and the restore tests.
import path from 'node:path';
import { expect } from 'vitest';
import { runGitSync, write, type Sandbox } from './tempRepo.js';

/** Writes files and commits them. */
export function commit(sb: Sandbox, repo: string, files: Record<string, string>, message: string): void {
  for (const [file, text] of Object.entries(files)) write(repo, file, text);
  sb.git(repo, 'add', '-A');
  sb.git(repo, 'commit', '-q', '-m', message);
}

/** A repository checked out at a detached HEAD (the commit before the last). */
export function detachedHead(sb: Sandbox, name: string): string {
  const repo = sb.repo(name);
  commit(sb, repo, { 'b.txt': 'b\n' }, 'second');
  sb.git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
  return repo;
}

/** A repository in the middle of a merge that stopped on a conflict in shared.txt. */
export function mergeInProgress(sb: Sandbox, name: string): string {
  const repo = sb.repo(name);
  commit(sb, repo, { 'shared.txt': 'base\n' }, 'base');
  sb.git(repo, 'checkout', '-q', '-b', 'other');
  commit(sb, repo, { 'shared.txt': 'theirs\n' }, 'theirs');
  sb.git(repo, 'checkout', '-q', 'main');
  commit(sb, repo, { 'shared.txt': 'ours\n' }, 'ours');
  expect(() => runGitSync(sb.gitEnv, repo, ['merge', 'other'])).toThrow();
  return repo;
}

/** A repository whose index differs from HEAD (a.txt, added.txt, gone.txt) and from the work tree (a.txt). */
export function stagedChanges(sb: Sandbox, name: string): string {
  const repo = sb.repo(name);
  commit(sb, repo, { 'a.txt': 'a1\n', 'gone.txt': 'to be removed\n' }, 'second');
  write(repo, 'a.txt', 'a2 staged\n');
  write(repo, 'added.txt', 'staged new file\n');
  sb.git(repo, 'add', 'a.txt', 'added.txt');
  sb.git(repo, 'rm', '-q', 'gone.txt');
  write(repo, 'a.txt', 'a3 in the work tree only\n');
  return repo;
}

/** A main checkout with a linked worktree `linked` on branch feature (one commit of its own). */
export function linkedWorktree(sb: Sandbox): { main: string; worktree: string; gitDir: string } {
  const main = sb.repo('main-checkout');
  const worktree = path.join(path.dirname(main), 'linked');
  sb.git(main, 'worktree', 'add', '-q', '-b', 'feature', worktree);
  commit(sb, worktree, { 'feature.txt': 'only in the worktree\n' }, 'feature');
  return { main, worktree, gitDir: sb.git(worktree, 'rev-parse', '--absolute-git-dir').trim() };
}

/** A repository with a submodule `sub` (a repository `lib` holding lib.c). */
export function withSubmodule(sb: Sandbox, name: string): string {
  const lib = sb.repo('lib');
  commit(sb, lib, { 'lib.c': 'int lib;\n' }, 'lib');
  const repo = sb.repo(name);
  sb.git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub');
  sb.git(repo, 'commit', '-q', '-m', 'add submodule');
  return repo;
}

/** Whether the project's own object store has `oid`. */
export function projectHas(sb: Sandbox, root: string, oid: string): boolean {
  try {
    runGitSync(sb.gitEnv, root, ['cat-file', '-e', oid]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks out a new branch `feature` with feature.txt committed on it: a checkpoint taken now
 * borrows objects only that branch holds. Returns feature.txt's blob.
 */
export function commitOnFeatureBranch(sb: Sandbox, root: string): string {
  sb.git(root, 'checkout', '-q', '-b', 'feature');
  commit(sb, root, { 'feature.txt': 'only on the feature branch\n' }, 'feature');
  return sb.git(root, 'rev-parse', 'HEAD:feature.txt').trim();
}

/** Back on main, deletes `feature` and collects: what only it held is gone from the project. */
export function dropFeatureBranch(sb: Sandbox, root: string): void {
  sb.git(root, 'checkout', '-q', 'main');
  sb.git(root, 'branch', '-q', '-D', 'feature');
  pruneEverythingUnreachable(sb, root);
}

/** The project's own aggressive gc: every unreachable object goes now (what rewind must survive). */
export function pruneEverythingUnreachable(sb: Sandbox, root: string): void {
  sb.git(root, 'reflog', 'expire', '--expire=now', '--all');
  sb.git(root, 'gc', '-q', '--prune=now');
}
