// Reading checkpoints straight from the shadow repo with git, independent of the engine.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hermeticGitEnv, runGitSync } from './tempRepo.js';

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
}

const env = hermeticGitEnv('/nonexistent-home');

/** `git --git-dir=<gitDir> ...args` as bytes (the shadow borrows objects through alternates). */
export function shadowGitBytes(gitDir: string, args: readonly string[], input?: string | Buffer): Buffer {
  return runGitSync(env, path.dirname(gitDir), [`--git-dir=${gitDir}`, ...args], input);
}

export function shadowGit(gitDir: string, ...args: string[]): string {
  return shadowGitBytes(gitDir, args).toString('utf8');
}

/** Every entry of a tree, recursively: path -> mode, type, oid (`ls-tree -r -z`). */
export function readTree(gitDir: string, tree: string): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  const out = shadowGitBytes(gitDir, ['ls-tree', '-r', '-z', '--full-tree', tree]).toString('utf8');
  for (const record of out.split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    entries.set(record.slice(tab + 1), { mode: mode ?? '', type: type ?? '', oid: oid ?? '' });
  }
  return entries;
}

/** The paths in a tree, sorted. */
export function treePaths(gitDir: string, tree: string): string[] {
  return [...readTree(gitDir, tree).keys()].sort();
}

/** Whether the shadow (or a store it borrows from) holds object `oid`. */
export function hasObject(gitDir: string, oid: string): boolean {
  try {
    shadowGitBytes(gitDir, ['cat-file', '-e', oid]);
    return true;
  } catch {
    return false;
  }
}

export function readBlob(gitDir: string, oid: string): Buffer {
  return shadowGitBytes(gitDir, ['cat-file', 'blob', oid]);
}

/** The bytes of one path in a tree (a symlink's target for mode 120000). */
export function fileInTree(gitDir: string, tree: string, file: string): { mode: string; bytes: Buffer } | undefined {
  const entry = readTree(gitDir, tree).get(file);
  return entry ? { mode: entry.mode, bytes: readBlob(gitDir, entry.oid) } : undefined;
}

/** Git's blob id of some bytes (sha1 object format). */
export function blobOid(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Number of commits reachable from any ref of the shadow. */
export function commitCount(gitDir: string): number {
  return Number(shadowGit(gitDir, 'rev-list', '--count', '--all').trim());
}

export interface ExpectOptions {
  /** Paths (relative, '/'-separated) that must not be in the checkpoint. */
  skip?: (rel: string) => boolean;
  /** HEAD commit of nested repositories, by path: recorded as gitlinks. */
  gitlinks?: Record<string, string>;
}

/**
 * What a checkpoint of `root` must hold, computed from the files themselves: path ->
 * "mode oid" (100755 when the owner may execute, 120000 for symlinks with the target as
 * content; `.git` and skipped paths left out; gitlinks as given).
 */
export function expectedTree(root: string, options: ExpectOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const gitlinks = options.gitlinks ?? {};
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (name === '.git') continue;
      if (options.skip?.(rel)) continue;
      const stat = fs.lstatSync(full);
      if (rel in gitlinks) {
        out[rel] = `160000 ${gitlinks[rel]}`;
      } else if (stat.isSymbolicLink()) {
        out[rel] = `120000 ${blobOid(Buffer.from(fs.readlinkSync(full)))}`;
      } else if (stat.isDirectory()) {
        walk(full);
      } else if (stat.isFile()) {
        out[rel] = `${stat.mode & 0o100 ? '100755' : '100644'} ${blobOid(fs.readFileSync(full))}`;
      }
    }
  };
  walk(root);
  return sortKeys(out);
}

/** A tree as path -> "mode oid", for comparing with `expectedTree`. */
export function actualTree(gitDir: string, tree: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, entry] of readTree(gitDir, tree)) out[file] = `${entry.mode} ${entry.oid}`;
  return sortKeys(out);
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
