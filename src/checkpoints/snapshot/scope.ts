// A snapshot that stages only the paths that changed since the last one (the app's watcher
// names them): git's own add on those that exist, git's own rm --cached on those that are
// gone. Exactness rests on the caller's promise that nothing else changed; every case where
// a path alone cannot say what changed is a walk of the whole tree instead.
import fs from 'node:fs';
import path from 'node:path';
import type { ShadowRepo } from '../store/shadowRepo.js';
import type { ScriptInput } from './snapshotScript.js';
import { shadowIdentity } from '../git/gitEnv.js';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/**
 * Above this many paths the add walks the whole tree: git matches every index entry
 * against every pathspec, so a long list over a big index costs more than the walk.
 */
export const maxScopedPaths = 200;

const literal = ':(literal)';

/** The pathspecs of the paths that exist (staged as they are, a folder with all it holds) and of those that are gone. */
export interface ScopePathspecs {
  present: string[];
  gone: string[];
  /** When every path that exists is a file or a symlink in plain folders of the project
   * (no symlink above it, no repository of its own around it): those paths. */
  files?: string[];
  /** When every path that exists is a regular file in plain folders: each one's git mode. */
  regular?: Map<string, '100644' | '100755'>;
  /** The biggest of them (bytes). */
  largest: number;
}

/**
 * The pathspecs that stage exactly `paths` as they are now, or undefined when only a walk
 * of the whole tree is exact: an ignore file changed (what every other path means changes
 * with it), or too many paths. A path that is not a plain project-relative path (absolute,
 * `..`, `.git`) is not trusted to narrow anything: a walk of the whole tree.
 */
export function scopePathspecs(root: string, paths: readonly string[]): ScopePathspecs | undefined {
  const present = new Set<string>();
  const gone = new Set<string>();
  const files = new Set<string>();
  const regular = new Map<string, '100644' | '100755'>();
  const plainFolders = new Map<string, boolean>();
  let onlyFiles = true;
  let largest = 0;
  for (const raw of paths) {
    const relative = raw.replace(/\/+$/, '');
    const parts = relative.split('/');
    if (relative === '' || path.isAbsolute(relative) || parts.some((part) => part === '' || part === '.' || part === '..' || part === '.git')) return undefined;
    if (path.posix.basename(relative) === '.gitignore') return undefined;
    const stat = lstatOf(path.join(root, relative));
    (stat ? present : gone).add(`${literal}${relative}`);
    if (stat) {
      if ((stat.isFile() || stat.isSymbolicLink()) && inPlainFolders(root, parts.slice(0, -1), plainFolders)) {
        files.add(relative);
        // As git's index records it: executable when the owner may run it.
        if (stat.isFile()) regular.set(relative, stat.mode & 0o100 ? '100755' : '100644');
        largest = Math.max(largest, stat.size);
      } else onlyFiles = false;
    }
    if (present.size + gone.size > maxScopedPaths) return undefined;
  }
  return { present: [...present], gone: [...gone], ...(onlyFiles && files.size > 0 ? { files: [...files] } : {}), ...(onlyFiles && regular.size === files.size ? { regular } : {}), largest };
}

function lstatOf(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Whether each folder on the way (`folders`: the path's parts above it) is a real folder,
 * neither a symlink nor a repository of its own (a `.git` in it): what git's add would walk
 * into as plain files. `known` keeps the answers of the folders already looked at.
 */
function inPlainFolders(root: string, folders: readonly string[], known: Map<string, boolean>): boolean {
  for (let depth = 1; depth <= folders.length; depth++) {
    const folder = folders.slice(0, depth).join('/');
    let plain = known.get(folder);
    if (plain === undefined) {
      const full = path.join(root, folder);
      plain = lstatOf(full)?.isDirectory() === true && lstatOf(path.join(full, '.git')) === undefined;
      known.set(folder, plain);
    }
    if (!plain) return false;
  }
  return true;
}

function pathspecFile(file: string, specs: readonly string[], more = ''): string {
  fs.writeFileSync(file, `${specs.map((spec) => `${spec}\0`).join('')}${more}`, { mode: 0o600 });
  return file;
}

/** What a step staged without the index commits to: the previous checkpoint's commit, the message. */
export interface WithoutIndexCommit {
  parent: string;
  message: string;
  /** checkpoint_max_file_mb: a bigger file is left to the stage that leaves it out. */
  maxFileBytes: number;
}

/**
 * Whether the paths can be staged without the shadow index (SnapshotScript's `withoutIndex`):
 * every one that exists a regular file (hash-object follows a symlink), and each name one
 * that fast-import and `hash-object --stdin-paths` take as it is (a name with a line break,
 * or starting with a quote, is read as quoted there). hash-object stores the bytes as add
 * does: the shadow's info/attributes turns every conversion off (shadowInit.ts).
 */
function stageableWithoutIndex(specs: ScopePathspecs, paths: readonly string[]): specs is ScopePathspecs & { regular: Map<string, '100644' | '100755'> } {
  if (!specs.regular && specs.present.length > 0) return false;
  return paths.every((file) => !/[\n\r]/.test(file) && !file.startsWith('"'));
}

/**
 * The files of a step staged without the shadow index: the fast-import head (a commit, mark
 * :1, on top of `commit.parent`, the gone paths deleted), and the paths, modes
 * (one per line, in one order) of the files the script hashes and adds to it.
 */
function writeWithoutIndex(repo: ShadowRepo, commit: WithoutIndexCommit, regular: ReadonlyMap<string, string>, gone: readonly string[]): NonNullable<NonNullable<ScriptInput['scope']>['withoutIndex']> {
  const message = Buffer.from(commit.message, 'utf8');
  const head = ['commit refs/rewind/step', 'mark :1', `committer ${shadowIdentity.name} <${shadowIdentity.email}> now`, `data ${message.length}`].join('\n');
  fs.writeFileSync(repo.store.noIndexHead, Buffer.concat([Buffer.from(`${head}\n`), message, Buffer.from(`\nfrom ${commit.parent}\n${gone.map((file) => `D ${file}\n`).join('')}`)]), { mode: 0o600 });
  fs.writeFileSync(repo.store.noIndexBlobs, [...regular.keys()].map((file) => `${file}\n`).join(''), { mode: 0o600 });
  fs.writeFileSync(repo.store.noIndexModes, [...regular.values()].map((mode) => `${mode}\n`).join(''), { mode: 0o600 });
  return { head: repo.store.noIndexHead, blobs: repo.store.noIndexBlobs, modes: repo.store.noIndexModes, ids: repo.store.noIndexIds };
}

/**
 * The scope argument of the snapshot script for `paths`: the file of the pathspecs to add
 * (with the nested repositories' excludes; `-`: none), of those to take out of the index,
 * and, when every path that exists is a plain file (ScopePathspecs.files), the file of those
 * paths, which the script stages without add's walk when no ignore rule names one;
 * undefined for a walk of the whole tree.
 */
export function writeScope(repo: ShadowRepo, paths: readonly string[], nested: ScriptInput['nested'], withoutIndex?: WithoutIndexCommit): ScriptInput['scope'] {
  const specs = scopePathspecs(repo.project.root, paths);
  if (!specs) return undefined;
  if (withoutIndex && !nested && specs.largest <= withoutIndex.maxFileBytes && stageableWithoutIndex(specs, paths)) {
    const gone = specs.gone.map((spec) => spec.slice(literal.length));
    return { add: '-', files: pathspecFile(repo.store.scopeFiles, [...specs.regular.keys()]), withoutIndex: writeWithoutIndex(repo, withoutIndex, specs.regular, gone) };
  }
  const excludes = nested ? fs.readFileSync(nested.pathspec, 'utf8') : '';
  const add = specs.present.length === 0 ? '-' : pathspecFile(repo.store.scopePathspec, specs.present, excludes);
  return {
    add,
    ...(specs.gone.length > 0 ? { gone: pathspecFile(repo.store.scopeGone, specs.gone) } : {}),
    // Beside nested repositories, add's excludes keep their paths as the links step set them.
    ...(specs.files && !nested ? { files: pathspecFile(repo.store.scopeFiles, specs.files) } : {}),
  };
}

/** What the shadow index is behind on: the paths staged without it since it was last used, and the tree they were last staged into. */
export interface IndexBehind {
  tree: string;
  paths: string[];
}

/**
 * What the shadow index is behind on (store.indexBehind): null for nothing; undefined when
 * the file cannot be read as such (what is not known, and only an index made again is exact).
 */
export function readIndexBehind(repo: ShadowRepo): IndexBehind | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(repo.store.indexBehind, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  try {
    const behind = JSON.parse(text) as Partial<IndexBehind> | null;
    const paths: unknown = behind?.paths;
    return typeof behind?.tree === 'string' && /^[0-9a-f]{40,64}$/.test(behind.tree) && Array.isArray(paths) && paths.every((item) => typeof item === 'string') ? { tree: behind.tree, paths: paths as string[] } : undefined;
  } catch {
    return undefined;
  }
}

/** A step just staged `paths` without the index, into `tree`; written whole, then renamed. Unreadable before: left so (see readIndexBehind). */
export function addIndexBehind(repo: ShadowRepo, tree: string, paths: readonly string[]): void {
  const known = readIndexBehind(repo);
  if (known === undefined) return;
  writeFileAtomic(repo.store.indexBehind, JSON.stringify({ tree, paths: [...new Set([...(known?.paths ?? []), ...paths])] }), 0o600, false);
}

/** The index is up to date with every checkpoint. */
export function clearIndexBehind(repo: ShadowRepo): void {
  fs.rmSync(repo.store.indexBehind, { force: true });
}
