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
  for (const raw of paths) {
    const relative = raw.replace(/\/+$/, '');
    const parts = relative.split('/');
    if (relative === '' || path.isAbsolute(relative) || parts.some((part) => part === '' || part === '.' || part === '..' || part === '.git')) return undefined;
    if (path.posix.basename(relative) === '.gitignore') return undefined;
    (exists(path.join(root, relative)) ? present : gone).add(`:(literal)${relative}`);
    if (present.size + gone.size > maxScopedPaths) return undefined;
  }
  return { present: [...present], gone: [...gone] };
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function pathspecFile(file: string, specs: readonly string[], more = ''): string {
  fs.writeFileSync(file, `${specs.map((spec) => `${spec}\0`).join('')}${more}`, { mode: 0o600 });
  return file;
}

/**
 * The scope argument of the snapshot script for `paths`: the file of the pathspecs to add
 * (with the nested repositories' excludes; `-`: none) and of those to take out of the
 * index; undefined for a walk of the whole tree.
 */
export function writeScope(repo: ShadowRepo, paths: readonly string[], nested: ScriptInput['nested']): ScriptInput['scope'] {
  const specs = scopePathspecs(repo.project.root, paths);
  if (!specs) return undefined;
  const excludes = nested ? fs.readFileSync(nested.pathspec, 'utf8') : '';
  const add = specs.present.length === 0 ? '-' : pathspecFile(repo.store.scopePathspec, specs.present, excludes);
  return specs.gone.length === 0 ? { add } : { add, gone: pathspecFile(repo.store.scopeGone, specs.gone) };
}
