import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointLog } from './checkpointLog.js';
import type { CheckpointRecord } from './record.js';
import { listBehindRefs } from './rebuildLog.js';
import { writeShadowConfig, type ShadowRepo } from './shadowRepo.js';

const lostReason = 'its shadow repository was deleted or damaged';

function idRange(records: readonly CheckpointRecord[]): string {
  const first = records[0]?.id;
  const last = records.at(-1)?.id;
  return first === last ? `#${first}` : `#${first}-#${last}`;
}

/** A store whose shadow repo lost its HEAD, config or objects (what healStore puts right): a few stats. */
function storeNeedsHealing(repo: ShadowRepo, log: CheckpointLog): boolean {
  if (!fs.existsSync(repo.store.root)) return false;
  if (!fs.existsSync(path.join(repo.gitDir, 'objects'))) return log.exists();
  return !fs.existsSync(path.join(repo.gitDir, 'HEAD')) || !fs.existsSync(path.join(repo.gitDir, 'config'));
}

/**
 * Whether the list needs the engine's recovery before it is read (recoverList): a store to
 * heal, or a list behind the shadow's refs (rebuildLog). Files looked at, no git, no lock.
 */
export function listNeedsRecovery(repo: ShadowRepo, log: CheckpointLog): boolean {
  return storeNeedsHealing(repo, log) || listBehindRefs(repo, log);
}

/**
 * Puts back what a damaged store lost, before anything else reads it (cheap: a few stats
 * when nothing is wrong). What is Rewind's own and can be written again is: a missing
 * `HEAD` or `config` of the shadow repo. A shadow repo without its objects (deleted, or
 * half of it) cannot be rebuilt: it is moved aside, the checkpoints it held stay listed
 * but marked as no longer restorable, and a fresh shadow repo starts with the next
 * checkpoint (ids go on from the newest). Returns what to tell the user, one line each.
 * Run under the project lock.
 */
export function healStore(repo: ShadowRepo, log: CheckpointLog, journal: string): string[] {
  if (!fs.existsSync(repo.store.root)) return [];
  if (fs.existsSync(path.join(repo.gitDir, 'objects'))) {
    if (!fs.existsSync(path.join(repo.gitDir, 'HEAD'))) fs.writeFileSync(path.join(repo.gitDir, 'HEAD'), 'ref: refs/heads/main\n', { mode: 0o600 });
    if (!fs.existsSync(path.join(repo.gitDir, 'config'))) writeShadowConfig(repo);
    return [];
  }
  const records = log.readAll();
  const lost = records.filter((record) => !record.unrestorable);
  let aside: string | undefined;
  if (fs.existsSync(repo.gitDir)) {
    aside = `${repo.gitDir}.damaged-${Date.now()}`;
    fs.renameSync(repo.gitDir, aside);
  }
  if (lost.length === 0) return [];
  log.rewrite(records.map((record) => (record.unrestorable ? record : { ...record, unrestorable: true, lost: lostReason })));
  const interrupted = fs.existsSync(journal);
  fs.rmSync(journal, { force: true });
  fs.rmSync(repo.store.restored, { force: true });
  const where = aside ? `${repo.gitDir} was damaged (moved to ${aside})` : `${repo.gitDir} was deleted`;
  const unfinished = interrupted ? '; the restore that was cut off cannot be finished or undone' : '';
  return [`${where}: checkpoint(s) ${idRange(lost)} can no longer be restored (they stay listed)${unfinished}; new checkpoints start in a fresh shadow repository`];
}
