// checkpoint_include: files the project's own ignore rules ignore that are checkpointed all
// the same (`.env`, `data.sqlite`), so an agent's `rm .env` can be undone. Only the
// project's ignore rules give way: the heavy patterns, checkpoint_exclude, the size cap and
// everything else a snapshot leaves out still hold. Git finds them (ls-files with the
// patterns as its only excludes) and stages them (the script's `update-index --add` of the
// list); once in the shadow index, a file is kept up to date by every add like any other.
import fs from 'node:fs';
import path from 'node:path';
import { splitNul } from '../git/git.js';
import { literalPattern } from '../git/gitignorePattern.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import type { StoreState } from '../store/storeState.js';
import { excludeMarker } from './excludeRules.js';
import { canRead, unreadableReason } from './stagingFailure.js';

/** What decides which ignored files a snapshot adds. */
export interface IncludeSettings {
  /** checkpoint_include: none, nothing is listed (and no git runs). */
  patterns: readonly string[];
  /** checkpoint_exclude: it wins over checkpoint_include. */
  exclude: readonly string[];
  maxFileBytes: number;
}

/** Paths per ls-files run: the candidates go on its command line. */
const chunk = 500;

/**
 * The rules that keep a file out whatever checkpoint_include says: the editable head of
 * the shadow's info/exclude (the heavy patterns), checkpoint_exclude, files left out,
 * nested repositories without a commit, restores' staged copies.
 */
function refusingRules(repo: ShadowRepo, state: StoreState, exclude: readonly string[]): string {
  let head = '';
  try {
    const infoExclude = fs.readFileSync(path.join(repo.gitDir, 'info', 'exclude'), 'utf8');
    const marker = infoExclude.indexOf(excludeMarker);
    head = marker >= 0 ? infoExclude.slice(0, marker) : infoExclude;
  } catch {
    // No info/exclude: no heavy patterns.
  }
  return [
    head,
    ...exclude,
    ...Object.keys(state.leftOut).map(literalPattern),
    ...state.unbornNested.map((dir) => `${literalPattern(dir)}/`),
    '/.rewind-staging-*/',
    '',
  ].join('\n');
}

/**
 * The files the include patterns match that git would add (`others`: untracked in the
 * shadow index; `cached`: already in it), less those the refusing rules keep out.
 */
async function matching(repo: ShadowRepo, state: StoreState, settings: IncludeSettings, which: '-o' | '-c'): Promise<string[]> {
  fs.writeFileSync(repo.store.includePatterns, `${settings.patterns.join('\n')}\n`, { mode: 0o600 });
  // Folders (an untracked nested repository) are never added by name.
  const candidates = splitNul((await repo.git(['ls-files', '-z', which, '-i', `--exclude-from=${repo.store.includePatterns}`])).stdout).filter((file) => !file.endsWith('/'));
  if (candidates.length === 0) return [];
  fs.writeFileSync(repo.store.includeRules, refusingRules(repo, state, settings.exclude), { mode: 0o600 });
  const refused = new Set<string>();
  for (let at = 0; at < candidates.length; at += chunk) {
    const specs = candidates.slice(at, at + chunk).map((file) => `:(literal)${file}`);
    const listed = await repo.git(['ls-files', '-z', which, '-i', `--exclude-from=${repo.store.includeRules}`, '--', ...specs]);
    for (const file of splitNul(listed.stdout)) refused.add(file);
  }
  return candidates.filter((file) => !refused.has(file));
}

/**
 * Writes the list of files the snapshot script adds by checkpoint_include (NUL-separated)
 * and returns its path; undefined when there are none (no patterns: no git runs at all).
 * Regular files over the cap are left out and recorded as oversize, unreadable ones as
 * left out (both reported on the checkpoint as skipped); FIFOs and the like are not added.
 */
export async function writeIncludeList(repo: ShadowRepo, state: StoreState, settings: IncludeSettings): Promise<string | undefined> {
  if (settings.patterns.length === 0) return undefined;
  const files: string[] = [];
  for (const file of await matching(repo, state, settings, '-o')) {
    const full = path.join(repo.project.root, file);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(full);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) files.push(file);
    else if (!stat.isFile()) continue;
    else if (stat.size > settings.maxFileBytes) state.oversize[file] = stat.size;
    else if (!canRead(full)) state.leftOut[file] = unreadableReason;
    else files.push(file);
  }
  if (files.length === 0) return undefined;
  fs.writeFileSync(repo.store.includeList, files.map((file) => `${file}\0`).join(''), { mode: 0o600 });
  return repo.store.includeList;
}

/** Of the files in the shadow index, those checkpoint_include keeps there though ignored. */
export async function includedInIndex(repo: ShadowRepo, state: StoreState, settings: IncludeSettings): Promise<Set<string>> {
  if (settings.patterns.length === 0) return new Set();
  return new Set(await matching(repo, state, settings, '-c'));
}
