import { gitlinkMode, type RawChange } from '../git/diffRaw.js';

/** A file the restore writes: created, or replaced whole (content, mode or type). */
export interface PlannedWrite {
  path: string;
  /** 100644, 100755 or 120000. */
  mode: string;
  oid: string;
  /** True when the path holds nothing in the current tree (a new file). */
  creates: boolean;
}

/** A path the restore will not touch, and why. */
export interface LeftAlone {
  path: string;
  reason: string;
  /** Set when the system refuses the change: its error code (EACCES, EPERM, EROFS, ENOSPC, EDQUOT). */
  refused?: string;
}

/** What restoring a checkpoint does: computed first, shown, then applied. */
export interface RestorePlan {
  writes: PlannedWrite[];
  deletes: string[];
  leftAlone: LeftAlone[];
}

const nestedReason = 'inside a nested repository or submodule: rewind never touches those';
const undecodableReason = 'its name is not UTF-8, which rewind cannot name safely: it stays as it is (rename it and restore again)';

function isInside(file: string, folders: readonly string[]): boolean {
  return folders.some((folder) => file === folder || file.startsWith(`${folder}/`));
}

/** Every path a plan changes: those it writes, then those it deletes. */
export function plannedPaths(plan: Pick<RestorePlan, 'writes' | 'deletes'>): string[] {
  return [...plan.writes.map((write) => write.path), ...plan.deletes];
}

/**
 * The plan from `git diff-tree -r --raw <current> <target>`: every path that differs is
 * written (whole file, via a staged copy) or deleted; gitlinks and anything inside a
 * nested repository are left alone. Pure: what exists on disk is checked when applying.
 */
export function planFromDiff(changes: readonly RawChange[], nested: readonly string[]): RestorePlan {
  const plan: RestorePlan = { writes: [], deletes: [], leftAlone: [] };
  for (const change of changes) {
    if (change.undecodable) {
      plan.leftAlone.push({ path: change.path, reason: undecodableReason });
      continue;
    }
    if (change.srcMode === gitlinkMode || change.dstMode === gitlinkMode || isInside(change.path, nested)) {
      plan.leftAlone.push({ path: change.path, reason: nestedReason });
      continue;
    }
    if (change.status === 'D') {
      plan.deletes.push(change.path);
      continue;
    }
    plan.writes.push({ path: change.path, mode: change.dstMode, oid: change.dstOid, creates: change.status === 'A' });
  }
  // Deepest first, so folders empty out before they are looked at.
  plan.deletes.sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  return plan;
}
