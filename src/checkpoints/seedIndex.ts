import fs from 'node:fs';
import path from 'node:path';
import { runGit, splitNul, text } from './git.js';
import { onceProjectGitConfig, type ProjectGitConfig } from './projectConfig.js';
import { projectGitEnv } from './gitEnv.js';
import type { ShadowRepo } from './shadowRepo.js';

interface SeededEntry {
  tag: string;
  mode: string;
  oid: string;
  path: string;
}

function parseEntry(line: string): SeededEntry {
  const tab = line.indexOf('\t');
  const [tag = '', mode = '', oid = ''] = line.slice(0, tab).split(' ');
  return { tag, mode, oid, path: line.slice(tab + 1) };
}

/** Entries of `ls-files -s -v -z` whose tag says assume-unchanged (lower case) or skip-worktree (S). */
function markedPaths(listing: string): string[] {
  return [...listing.matchAll(/(?:^|\0)[a-zS] [^\t\0]*\t([^\0]*)/g)].map((match) => match[1] ?? '');
}

const conversionAttributes = ['text', 'eol', 'crlf', 'filter', 'ident', 'working-tree-encoding'];

function isConverting(attribute: string, value: string): boolean {
  if (value === 'unspecified' || value === 'unset') return false;
  return attribute !== 'ident' || value === 'set';
}

/** Whether the project has any attribute file or line-ending setting that could convert content. */
async function mayConvert(repo: ShadowRepo, listing: string, gitConfig: () => Promise<ProjectGitConfig>): Promise<{ attributes: boolean; autocrlf: boolean }> {
  const git = repo.project.git;
  const config = await gitConfig();
  const attributes =
    /(?:\t|\/)\.gitattributes(?:\0|$)/.test(listing) ||
    (git !== undefined && fs.existsSync(path.join(git.commonDir, 'info', 'attributes'))) ||
    fs.existsSync(config.attributesFile);
  return { attributes, autocrlf: config.autocrlf };
}

/** Paths whose committed blob the project's attributes may have converted from the bytes on disk. */
async function convertedCandidates(repo: ShadowRepo, listing: string, gitConfig: () => Promise<ProjectGitConfig>): Promise<{ files: SeededEntry[]; candidates: Set<string> }> {
  const { attributes, autocrlf } = await mayConvert(repo, listing, gitConfig);
  if (!autocrlf && !attributes) return { files: [], candidates: new Set() };
  const files = splitNul(listing)
    .map(parseEntry)
    .filter((entry) => entry.mode === '100644' || entry.mode === '100755');
  if (autocrlf) return { files, candidates: new Set(files.map((entry) => entry.path)) };
  if (files.length === 0) return { files, candidates: new Set() };
  const checked = await runGit(['check-attr', '-z', '--stdin', ...conversionAttributes], {
    cwd: repo.project.root,
    env: projectGitEnv(repo.sourceEnv),
    input: `${files.map((entry) => entry.path).join('\0')}\0`,
  });
  const fields = splitNul(checked.stdout);
  const candidates = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [file, attribute, value] = [fields[i] ?? '', fields[i + 1] ?? '', fields[i + 2] ?? ''];
    if (isConverting(attribute, value)) candidates.add(file);
  }
  return { files, candidates };
}

/**
 * Seeds the shadow index with a copy of the project's own index, so the first snapshot
 * of a big repository reuses git's cached stat data and hashes only what changed instead
 * of every file (objects are found through alternates). Three things in a copied index
 * would hide the bytes on disk, and are undone:
 * - assume-unchanged and skip-worktree marks (the shadow must see every change);
 * - blobs the project's line-ending or filter (LFS) attributes converted: those entries
 *   are dropped when the file's raw hash differs, so the add stores the real bytes;
 * - files over the size cap among those are dropped without being read.
 * Returns whether an index was seeded, and the oversize files it met.
 */
export async function seedShadowIndex(
  repo: ShadowRepo,
  maxFileBytes: number,
  gitConfig: () => Promise<ProjectGitConfig> = onceProjectGitConfig(repo.project, repo.sourceEnv),
): Promise<{ seeded: boolean; oversize: Record<string, number> }> {
  const oversize: Record<string, number> = {};
  const git = repo.project.git;
  if (!git) return { seeded: false, oversize };
  const source = path.join(git.gitDir, 'index');
  if (!fs.existsSync(source)) return { seeded: false, oversize };
  try {
    fs.copyFileSync(source, repo.indexFile);
    for (const name of fs.readdirSync(git.gitDir)) {
      if (name.startsWith('sharedindex.')) fs.copyFileSync(path.join(git.gitDir, name), path.join(repo.gitDir, name));
    }
    const listing = (await repo.git(['ls-files', '-s', '-v', '-z'], { timeoutMs: 60_000 })).stdout.toString('utf8');
    const marked = markedPaths(listing);
    // One flag per call: update-index applies only the first such flag to stdin paths.
    for (const flag of ['--no-assume-unchanged', '--no-skip-worktree']) {
      if (marked.length > 0) await repo.git(['update-index', flag, '-z', '--stdin'], { input: `${marked.join('\0')}\0` });
    }

    const { files, candidates } = await convertedCandidates(repo, listing, gitConfig);
    const drop: string[] = [];
    const toHash: SeededEntry[] = [];
    for (const entry of files) {
      if (!candidates.has(entry.path)) continue;
      let size: number;
      try {
        size = fs.lstatSync(path.join(repo.project.root, entry.path)).size;
      } catch {
        continue;
      }
      if (size > maxFileBytes) {
        oversize[entry.path] = size;
        drop.push(entry.path);
      } else if (entry.path.includes('\n')) {
        drop.push(entry.path);
      } else {
        toHash.push(entry);
      }
    }
    if (toHash.length > 0) {
      const hashed = await repo.git(['hash-object', '--no-filters', '--stdin-paths'], { input: `${toHash.map((entry) => entry.path).join('\n')}\n` });
      const oids = text(hashed).split('\n');
      toHash.forEach((entry, index) => {
        if (oids[index] !== entry.oid) drop.push(entry.path);
      });
    }
    if (drop.length > 0) await repo.git(['update-index', '--force-remove', '-z', '--stdin'], { input: `${drop.join('\0')}\0` });
    return { seeded: true, oversize };
  } catch {
    fs.rmSync(repo.indexFile, { force: true });
    return { seeded: false, oversize: {} };
  }
}
