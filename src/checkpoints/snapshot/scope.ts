// A snapshot that stages only the paths that changed since the last one (the app's watcher
// names them): git's own add on those that exist, git's own rm --cached on those that are
// gone. Exactness rests on the caller's promise that nothing else changed; every case where
// a path alone cannot say what changed is a walk of the whole tree instead.
import fs from 'node:fs';
import path from 'node:path';
import type { ShadowRepo } from '../store/shadowRepo.js';
import type { ScriptInput } from './snapshotScript.js';

/**
 * Above this many paths the add walks the whole tree: git matches every index entry
 * against every pathspec, so a long list over a big index costs more than the walk.
 */
export const maxScopedPaths = 200;

/** The pathspecs of the paths that exist (staged as they are, a folder with all it holds) and of those that are gone. */
export interface ScopePathspecs {
  present: string[];
  gone: string[];
  /** When every path that exists is a file or a symlink in plain folders of the project
   * (no symlink above it, no repository of its own around it): those paths. */
  files?: string[];
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
  const plainFolders = new Map<string, boolean>();
  let onlyFiles = true;
  for (const raw of paths) {
    const relative = raw.replace(/\/+$/, '');
    const parts = relative.split('/');
    if (relative === '' || path.isAbsolute(relative) || parts.some((part) => part === '' || part === '.' || part === '..' || part === '.git')) return undefined;
    if (path.posix.basename(relative) === '.gitignore') return undefined;
    const stat = lstatOf(path.join(root, relative));
    (stat ? present : gone).add(`:(literal)${relative}`);
    if (stat) {
      if ((stat.isFile() || stat.isSymbolicLink()) && inPlainFolders(root, parts.slice(0, -1), plainFolders)) files.add(relative);
      else onlyFiles = false;
    }
    if (present.size + gone.size > maxScopedPaths) return undefined;
  }
  return { present: [...present], gone: [...gone], ...(onlyFiles && files.size > 0 ? { files: [...files] } : {}) };
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

/**
 * The scope argument of the snapshot script for `paths`: the file of the pathspecs to add
 * (with the nested repositories' excludes; `-`: none), of those to take out of the index,
 * and, when every path that exists is a plain file (ScopePathspecs.files), the file of those
 * paths, which the script stages without add's walk when no ignore rule names one;
 * undefined for a walk of the whole tree.
 */
export function writeScope(repo: ShadowRepo, paths: readonly string[], nested: ScriptInput['nested']): ScriptInput['scope'] {
  const specs = scopePathspecs(repo.project.root, paths);
  if (!specs) return undefined;
  const excludes = nested ? fs.readFileSync(nested.pathspec, 'utf8') : '';
  const add = specs.present.length === 0 ? '-' : pathspecFile(repo.store.scopePathspec, specs.present, excludes);
  return {
    add,
    ...(specs.gone.length > 0 ? { gone: pathspecFile(repo.store.scopeGone, specs.gone) } : {}),
    // Beside nested repositories, add's excludes keep their paths as the links step set them.
    ...(specs.files && !nested ? { files: pathspecFile(repo.store.scopeFiles, specs.files) } : {}),
  };
}
