import fs from 'node:fs';
import path from 'node:path';
import { commonDirOf, gitDirOf } from '../git/project.js';
import { readProjectHead } from '../git/projectHead.js';
import type { SkippedFile } from '../store/record.js';
import { canRead } from './stagingFailure.js';
import type { StoreState } from '../store/storeState.js';

// The files a snapshot leaves out (too big, heavy, not regular or unreadable, unborn nested
// repositories): reviewed before each snapshot, and reported on each checkpoint.

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

const heavyReason = 'matches a heavy-file pattern (info/exclude of the shadow repo)';
const unbornReason = 'nested git repository without a commit: not checkpointed';

/** Forgets files that are no longer oversize, heavy, unreadable, or unborn repositories. */
export function reviewState(state: StoreState, root: string, maxBytes: number): void {
  for (const [file] of Object.entries(state.oversize)) {
    try {
      const bytes = fs.lstatSync(path.join(root, file)).size;
      if (bytes > maxBytes) state.oversize[file] = bytes;
      else delete state.oversize[file];
    } catch {
      delete state.oversize[file];
    }
  }
  for (const [file] of Object.entries(state.heavy)) {
    try {
      state.heavy[file] = fs.lstatSync(path.join(root, file)).size;
    } catch {
      delete state.heavy[file];
    }
  }
  for (const [file] of Object.entries(state.leftOut)) {
    const full = path.join(root, file);
    const stat = lstatOrUndefined(full);
    const stillLeftOut = stat !== undefined && (stat.isFile() ? !canRead(full) : !stat.isSymbolicLink() && !stat.isDirectory());
    if (!stillLeftOut) delete state.leftOut[file];
  }
  state.unbornNested = state.unbornNested.filter((dir) => {
    try {
      const gitDir = gitDirOf(path.join(root, dir, '.git'));
      return gitDir !== undefined && !readProjectHead({ root: path.join(root, dir), git: { gitDir, commonDir: commonDirOf(gitDir) } });
    } catch {
      return false;
    }
  });
}

/** What a checkpoint taken with this state leaves out, and why (sorted by path). */
export function skippedOf(state: StoreState, root: string, capMb: number): SkippedFile[] {
  return [
    ...Object.entries(state.oversize).map(([file, bytes]) => ({ path: file, bytes, reason: `larger than checkpoint_max_file_mb (${capMb} MB)` })),
    ...Object.entries(state.heavy).map(([file, bytes]) => ({ path: file, bytes, reason: heavyReason })),
    ...state.unbornNested.map((dir) => ({ path: `${dir}/`, bytes: 0, reason: unbornReason })),
    ...Object.entries(state.leftOut).map(([file, reason]) => ({ path: file, bytes: lstatOrUndefined(path.join(root, file))?.size ?? 0, reason })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

