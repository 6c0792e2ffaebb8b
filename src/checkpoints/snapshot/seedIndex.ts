import fs from 'node:fs';
import path from 'node:path';
import { splitNul, text } from '../git/git.js';
import { runProjectGit } from '../git/projectGit.js';
import { hasFileNamed, parseIndex, type IndexEntry } from '../git/indexFile.js';
import { onceProjectGitConfig, type ProjectGitConfig } from '../git/projectConfig.js';
import type { ShadowRepo } from '../store/shadowRepo.js';
import { trickOn } from '../../shared/seams.js';

const regularModes = new Set([0o100644, 0o100755]);

/** The seeded entries as git lists them, for an index our parser does not read (split, sparse). */
async function listEntries(repo: ShadowRepo): Promise<IndexEntry[]> {
  const listing = (await repo.git(['ls-files', '-s', '-v', '-z'], { timeoutMs: 60_000 })).stdout;
  return splitNul(listing).map((line) => {
    const tab = line.indexOf('\t');
    const [tag = '', mode = '', oid = '', stage = '0'] = line.slice(0, tab).split(' ');
    return {
      path: line.slice(tab + 1),
      mode: parseInt(mode, 8),
      oid,
      size: -1,
      stage: Number(stage),
      assumeUnchanged: /^[a-z]/.test(tag),
      skipWorktree: tag === 'S',
    };
  });
}

const conversionAttributes = ['text', 'eol', 'crlf', 'filter', 'ident', 'working-tree-encoding'];

function isConverting(attribute: string, value: string): boolean {
  if (value === 'unspecified' || value === 'unset') return false;
  return attribute !== 'ident' || value === 'set';
}

/** Paths whose committed blob the project's attributes may have converted from the bytes on disk. */
async function convertedCandidates(repo: ShadowRepo, files: readonly IndexEntry[], gitConfig: () => Promise<ProjectGitConfig>): Promise<Set<string>> {
  const config = await gitConfig();
  if (config.autocrlf) return new Set(files.map((entry) => entry.path));
  const git = repo.project.git;
  const attributes =
    hasFileNamed(files, '.gitattributes') ||
    (git !== undefined && fs.existsSync(path.join(git.commonDir, 'info', 'attributes'))) ||
    fs.existsSync(config.attributesFile);
  if (!attributes || files.length === 0) return new Set();
  const checked = await runProjectGit(repo.project.root, repo.sourceEnv, ['check-attr', '-z', '--stdin', ...conversionAttributes], {
    input: `${files.map((entry) => entry.path).join('\0')}\0`,
  });
  const fields = splitNul(checked.stdout);
  const candidates = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    if (isConverting(fields[i + 1] ?? '', fields[i + 2] ?? '')) candidates.add(fields[i] ?? '');
  }
  return candidates;
}

/**
 * Gives the copy of an index the original's modification time, rounded down to the second.
 * Git takes an entry whose file changed in the same second as the index was written (or
 * later) for "racily clean" and compares its content; it tells by the index FILE's mtime.
 * A copy made later would pass such entries as clean, and a same-size edit made in that
 * second would be missed (the checkpoint would hold what the project staged). Rounded
 * down, every entry racy for the original is racy for the copy (a few more may be: they are
 * only hashed again).
 */
function keepRacyTimestamp(original: string, copy: string): void {
  const { atime, mtimeMs } = fs.statSync(original);
  fs.utimesSync(copy, atime, new Date(Math.floor(mtimeMs / 1000) * 1000));
}

function sizeOnDisk(root: string, file: string): number | undefined {
  try {
    return fs.lstatSync(path.join(root, file)).size;
  } catch {
    return undefined;
  }
}

export interface SeedResult {
  seeded: boolean;
  /** Committed files over the cap, taken out before anything reads them: path -> bytes. */
  oversize: Record<string, number>;
  /** The seeded entries (what the first snapshot starts from), when known. */
  entries?: IndexEntry[];
  /** Every entry of the project's index is in the shadow's but files over the cap: the
   * tracked files plus the project's untracked ones are then the whole work tree. */
  exact?: boolean;
}

/**
 * Seeds the shadow index with a copy of the project's own index, so the first snapshot
 * of a big repository reuses git's cached stat data and hashes only what changed instead
 * of every file (objects are found through alternates). What in a copied index would
 * hide the bytes on disk is undone:
 * - assume-unchanged and skip-worktree marks (the shadow must see every change);
 * - blobs the project's line-ending or filter (LFS) attributes converted: those entries
 *   are dropped when the file's raw hash differs, so the add stores the real bytes;
 * - files over the size cap are dropped without being read.
 */
export async function seedShadowIndex(
  repo: ShadowRepo,
  maxFileBytes: number,
  gitConfig: () => Promise<ProjectGitConfig> = onceProjectGitConfig(repo.project, repo.sourceEnv),
): Promise<SeedResult> {
  const oversize: Record<string, number> = {};
  const git = repo.project.git;
  if (!git || !trickOn('seed-index')) return { seeded: false, oversize };
  const source = path.join(git.gitDir, 'index');
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(source);
  } catch {
    return { seeded: false, oversize };
  }
  try {
    fs.writeFileSync(repo.indexFile, bytes, { mode: 0o600 });
    keepRacyTimestamp(source, repo.indexFile);
    for (const name of fs.readdirSync(git.gitDir)) {
      if (!name.startsWith('sharedindex.')) continue;
      fs.copyFileSync(path.join(git.gitDir, name), path.join(repo.gitDir, name));
      keepRacyTimestamp(path.join(git.gitDir, name), path.join(repo.gitDir, name));
    }
    const parsed = parseIndex(bytes);
    const entries = parsed ?? (await listEntries(repo));
    const marked = entries.filter((entry) => entry.assumeUnchanged || entry.skipWorktree).map((entry) => entry.path);
    // One flag per call: update-index applies only the first such flag to stdin paths.
    for (const flag of ['--no-assume-unchanged', '--no-skip-worktree']) {
      if (marked.length > 0) await repo.git(['update-index', flag, '-z', '--stdin'], { input: `${marked.join('\0')}\0` });
    }

    const files = entries.filter((entry) => entry.stage === 0 && regularModes.has(entry.mode));
    const drop = new Set<string>();
    for (const entry of files) {
      // The index keeps the low 32 bits of the size (-1: git listed the entries and the
      // first snapshot's tree listing checks sizes instead).
      if (entry.size < 0 || entry.size <= maxFileBytes) continue;
      const size = sizeOnDisk(repo.project.root, entry.path);
      if (size !== undefined && size > maxFileBytes) {
        oversize[entry.path] = size;
        drop.add(entry.path);
      }
    }
    const candidates = await convertedCandidates(repo, files, gitConfig);
    const toHash = candidates.size === 0 ? [] : files.filter((entry) => candidates.has(entry.path) && !drop.has(entry.path));
    for (const entry of toHash) if (entry.path.includes('\n')) drop.add(entry.path);
    const hashable = toHash.filter((entry) => !drop.has(entry.path) && sizeOnDisk(repo.project.root, entry.path) !== undefined);
    if (hashable.length > 0) {
      const hashed = await repo.git(['hash-object', '--no-filters', '--stdin-paths'], { input: `${hashable.map((entry) => entry.path).join('\n')}\n` });
      const oids = text(hashed).split('\n');
      hashable.forEach((entry, index) => {
        if (oids[index] !== entry.oid) drop.add(entry.path);
      });
    }
    if (drop.size > 0) await repo.git(['update-index', '--force-remove', '-z', '--stdin'], { input: `${[...drop].join('\0')}\0` });
    const kept = drop.size === 0 ? entries : entries.filter((entry) => !drop.has(entry.path));
    return { seeded: true, oversize, entries: parsed ? kept : undefined, exact: drop.size === Object.keys(oversize).length };
  } catch {
    fs.rmSync(repo.indexFile, { force: true });
    return { seeded: false, oversize: {} };
  }
}
