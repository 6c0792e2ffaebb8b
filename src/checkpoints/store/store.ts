import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/**
 * Every file of one project's store under `$REWIND_HOME/history/<hash>/`: the one place
 * their names are written. (The lock's own side files, `lock.queue/` and `lock.groups`,
 * are named by lock.ts from `lock`; staged copies and scratch folders by
 * restore/staging.ts from `stagingPrefix` and `scratchPrefix`.)
 */
export interface StorePaths {
  root: string;
  /** The shadow repository. */
  repo: string;
  /** checkpoints.jsonl: the list of checkpoints. */
  log: string;
  /** Which project this store is for (a hash collision is never merged). */
  projectJson: string;
  /** The cross-process lock of snapshots and restores. */
  lock: string;
  /** A restore under way (exists only mid-restore). */
  journal: string;
  /** What snapshots remember between runs (storeState.ts). */
  state: string;
  conv: string;
  /** The restored marker (restore/restoredMarker.ts). */
  restored: string;
  /** What each restore on the redo stack created (restore/createdFiles.ts). */
  redoCreated: string;
  /** Left by a background gc that failed: the chain needs repair (repairChain.ts). */
  needsRepair: string;
  /** Left while retention drops checkpoints: a crash between the list and the refs is finished next time (pruneStore.ts). */
  pruning: string;
  /** Touched when retention last measured the store against its size cap (applyRetention.ts). */
  retentionChecked: string;
  /** What the steps that span several checkpoints changed, as last read (tools/spanCache.ts). */
  spans: string;
  /** The last size drop that freed little, so it is not repeated at every check (sizeDrop.ts). */
  sizeDrop: string;
  /** While a retention pass runs: the process doing it, as in the gc.pid it holds (maintenance.ts: takeGcLock). */
  reclaiming: string;
  /** Packs retention took out of the shadow, removed without the lock (retention/reclaim.ts). */
  reclaimTrash: string;
  /** The background walk for heavy files: its result, and its pid while it runs (heavyScan.ts). */
  heavyScan: string;
  heavyScanStarted: string;
  /** What the project itself ignores, for that walk (excludeRules.ts). */
  standardExclude: string;
  /** The untracked files a robust snapshot stages (snapshot.ts). */
  untrackedList: string;
  /** The nested repositories a snapshot updates from their HEAD and leaves out of its add:
   * their paths, and the same as exclude pathspecs (snapshot.ts, nestedLinks). */
  nestedList: string;
  nestedPathspec: string;
  /** The pathspecs of a snapshot that stages only the paths that changed (snapshot/scope.ts). */
  scopePathspec: string;
  scopeGone: string;
  scopeFiles: string;
  /** A step staged without the shadow index (scope.ts): the commit's fast-import head, its
   * files' paths, modes and blob ids; and the paths the index is behind on since (JSON). */
  noIndexHead: string;
  noIndexBlobs: string;
  noIndexModes: string;
  noIndexIds: string;
  indexBehind: string;
  /** checkpoint_include (snapshot/includeFiles.ts): its patterns, the rules that still keep
   * files out (heavy patterns, checkpoint_exclude, …), and the files a snapshot adds by them. */
  includePatterns: string;
  includeRules: string;
  includeList: string;
  /** The shadow's empty hooks folder, and an empty file for its excludes and attributes settings. */
  noHooks: string;
  empty: string;
  /** Prefixes of restores' staged copies and of throwaway work folders in the store. */
  stagingPrefix: string;
  scratchPrefix: string;
}

export interface ProjectRecord {
  path: string;
  created: string;
}

function pathsOf(root: string): StorePaths {
  return {
    root,
    repo: path.join(root, 'repo.git'),
    log: path.join(root, 'checkpoints.jsonl'),
    projectJson: path.join(root, 'project.json'),
    lock: path.join(root, 'lock'),
    journal: path.join(root, 'journal'),
    state: path.join(root, 'state.json'),
    conv: path.join(root, 'conv'),
    restored: path.join(root, 'restored'),
    redoCreated: path.join(root, 'redo-created'),
    needsRepair: path.join(root, 'needs-repair'),
    pruning: path.join(root, 'pruning'),
    retentionChecked: path.join(root, 'retention-checked'),
    spans: path.join(root, 'spans.json'),
    sizeDrop: path.join(root, 'size-drop'),
    reclaiming: path.join(root, 'reclaiming'),
    reclaimTrash: path.join(root, 'reclaim-trash'),
    heavyScan: path.join(root, 'heavy-scan'),
    heavyScanStarted: path.join(root, 'heavy-scan.started'),
    standardExclude: path.join(root, 'standard.exclude'),
    untrackedList: path.join(root, 'untracked.list'),
    nestedList: path.join(root, 'nested.list'),
    nestedPathspec: path.join(root, 'nested.pathspec'),
    scopePathspec: path.join(root, 'scope.pathspec'),
    scopeGone: path.join(root, 'scope.gone'),
    scopeFiles: path.join(root, 'scope.files'),
    noIndexHead: path.join(root, 'no-index.head'),
    noIndexBlobs: path.join(root, 'no-index.blobs'),
    noIndexModes: path.join(root, 'no-index.modes'),
    noIndexIds: path.join(root, 'no-index.ids'),
    indexBehind: path.join(root, 'index-behind.json'),
    includePatterns: path.join(root, 'include.patterns'),
    includeRules: path.join(root, 'include.rules'),
    includeList: path.join(root, 'include.list'),
    noHooks: path.join(root, 'no-hooks'),
    empty: path.join(root, 'empty'),
    stagingPrefix: 'staging-',
    scratchPrefix: 'scratch-',
  };
}

/** The folder under REWIND_HOME that holds every project's store. */
export function historyDir(home: string): string {
  return path.join(home, 'history');
}

/** First 8 hex digits of sha256 of the project's real path: its store's folder name. */
export function projectHash(projectRoot: string): string {
  return createHash('sha256').update(projectRoot).digest('hex').slice(0, 8);
}

function readProjectRecord(file: string): ProjectRecord | undefined {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const record = JSON.parse(content) as Partial<ProjectRecord>;
    if (typeof record.path === 'string') return { path: record.path, created: String(record.created ?? '') };
  } catch {
    // An unreadable project.json: the folder is someone's, so it is never reused.
  }
  return { path: '', created: '' };
}

/**
 * The store folder of a project, without creating it. Two projects whose paths share a
 * hash prefix get `<hash>`, `<hash>-2`, …: a collision is detected by project.json,
 * never merged.
 */
export function locateStore(home: string, projectRoot: string): { paths: StorePaths; exists: boolean } {
  const hash = projectHash(projectRoot);
  const base = path.join(historyDir(home), hash);
  const slot = (n: number) => (n === 1 ? base : `${base}-${n}`);
  // Every slot of this hash is looked at before a free one is taken: a slot freed by
  // `rewind clean` must not hide the store of a project in a later one.
  const taken = slotsOf(path.dirname(base), hash);
  for (const n of taken) {
    if (readProjectRecord(path.join(slot(n), 'project.json'))?.path === projectRoot) return { paths: pathsOf(slot(n)), exists: true };
  }
  for (let n = 1; n < 100; n++) {
    if (readProjectRecord(path.join(slot(n), 'project.json')) === undefined) return { paths: pathsOf(slot(n)), exists: false };
  }
  throw new UserError(`too many checkpoint stores collide with ${base}: remove stale ones with \`rewind clean --orphans\``);
}

/** The slot numbers (1 for `<hash>`, n for `<hash>-n`) that exist under `history` for `hash`. */
function slotsOf(history: string, hash: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(history);
  } catch {
    return [];
  }
  const slots: number[] = [];
  for (const name of names) {
    if (name === hash) slots.push(1);
    else if (name.startsWith(`${hash}-`) && /^\d+$/.test(name.slice(hash.length + 1))) slots.push(Number(name.slice(hash.length + 1)));
  }
  return slots.sort((a, b) => a - b);
}

/** Creates the store folder (0700: snapshots hold secrets) and its project.json. */
export function createStore(paths: StorePaths, projectRoot: string): void {
  fs.mkdirSync(path.dirname(paths.root), { recursive: true, mode: 0o700 });
  fs.mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  fs.chmodSync(paths.root, 0o700);
  const record: ProjectRecord = { path: projectRoot, created: new Date().toISOString() };
  writeFileAtomic(paths.projectJson, `${JSON.stringify(record, null, 2)}\n`);
}
