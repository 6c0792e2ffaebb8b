import fs from 'node:fs';
import { writeFileAtomic } from '../../shared/atomicFile.js';

/**
 * What the snapshot engine remembers between snapshots: files it leaves out and nested
 * repositories it has seen. All of it can be rebuilt; it is written only when it changes.
 */
export interface StoreState {
  /** Files over checkpoint_max_file_mb: path -> bytes when last seen. */
  oversize: Record<string, number>;
  /** Untracked files left out by the heavy patterns: path -> bytes when last seen. */
  heavy: Record<string, number>;
  /** Nested repositories without a commit (git cannot record them as gitlinks yet). */
  unbornNested: string[];
  /** Files git cannot add (FIFOs, sockets, devices, unreadable files): path -> why. */
  leftOut: Record<string, string>;
  /** Nested repositories and submodules recorded as gitlinks. */
  nested: string[];
  /** The largest checkpoint_max_file_mb (in bytes) this store has ever used: no checkpoint
   * can hold a file bigger than that. Undefined for stores that predate it. */
  largestCapBytes?: number;
  /** The newest checkpoint a full scan found the files equal to: every checkpoint staged from
   * changed paths up to it is confirmed (snapshot/scope.ts). */
  scanConfirmedThrough?: number;
}

export function emptyState(): StoreState {
  return { oversize: {}, heavy: {}, unbornNested: [], nested: [], leftOut: {} };
}

export function readState(file: string): StoreState {
  try {
    return { ...emptyState(), ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<StoreState>) };
  } catch {
    return emptyState();
  }
}

export function writeStateIfChanged(file: string, before: string, state: StoreState): void {
  const after = JSON.stringify(state);
  if (after !== before) writeFileAtomic(file, `${after}\n`, 0o600, false);
}
