// The checkpoint list read from the store's files alone, without the engine: what `rewind
// list` prints at once, at any project size (issue 27). No lock, no scan of the work tree,
// no git process but the one diff of the steps that span several checkpoints when they were
// not counted before (run synchronously: the list waits for nothing else). When the
// store needs the engine's work first (the list to recover, a chain to repair, a restore cut
// off, retention due), it says so and the caller opens the engine, which does that work.
import { readState } from './store/storeState.js';
import fs from 'node:fs';
import { findProject } from './git/project.js';
import { CheckpointLog } from './store/checkpointLog.js';
import type { CheckpointRecord } from './store/record.js';
import { repairMarker } from './store/repairChain.js';
import { removeDeadScratch } from './store/scratchFolders.js';
import { ShadowRepo } from './store/shadowRepo.js';
import { locateStore } from './store/store.js';
import { listNeedsRecovery } from './store/storeHealth.js';
import { interruptedJournal } from './restore/journal.js';
import { retentionDue } from './retention/applyRetention.js';
import type { RetentionPolicy } from './retention/retention.js';
import { spanChanges, type SpanChange } from './tools/stepDiff.js';

/** A project's checkpoints as its list holds them, and the diff of tree pairs (a turn's count). */
export interface CheckpointList {
  readonly projectRoot: string;
  /** Every checkpoint, oldest first. */
  readonly records: readonly CheckpointRecord[];
  /** What changed from each pair's first tree to its second, in one git call. */
  spanChanges(pairs: readonly (readonly [string, string])[]): Promise<SpanChange[]>;
  /** As ProjectCheckpoints.scanConfirmedThrough: from the store's state file. */
  scanConfirmedThrough(): number;
}

/** Where the list is read: the project around `cwd`, the store under `home`, retention's policy and clock. */
export interface ListOptions {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  policy: RetentionPolicy;
  now: number;
  allowHome?: boolean;
}

/**
 * The checkpoint list of the project around `cwd`, read from its files, or undefined when
 * the store needs the engine first (openEngine then does what it needs: recoverList,
 * maintain, interruptedRestore, retention). Like the engine's opening, it removes the scratch
 * folders of Rewinds that were killed, and creates nothing.
 */
export async function readCheckpointList(options: ListOptions): Promise<CheckpointList | undefined> {
  const project = findProject(options.cwd, { allowHome: options.allowHome, env: options.env });
  const { paths } = locateStore(options.home, project.root);
  const repo = new ShadowRepo(paths, project, options.env);
  const log = new CheckpointLog(paths.log);
  removeDeadScratch(paths);
  if (listNeedsRecovery(repo, log) || interruptedJournal(paths.journal) !== undefined) return undefined;
  const initialized = repo.exists();
  if (initialized && fs.existsSync(repairMarker(repo))) return undefined;
  const list = () => log.readAll();
  if (await retentionDue({ initialized, store: paths, repo, list }, options.policy, options.now)) return undefined;
  return {
    projectRoot: project.root,
    records: list(),
    spanChanges: (pairs) => spanChanges({ repo, store: paths }, pairs, { sync: true }),
    scanConfirmedThrough: () => readState(paths.state).scanConfirmedThrough ?? 0,
  };
}
