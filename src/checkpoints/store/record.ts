/** A file a checkpoint leaves out, and why. */
export interface SkippedFile {
  path: string;
  bytes: number;
  reason: string;
}

/** Where the agent's conversation stood at this checkpoint (filled in by agent adapters). */
export interface ConversationRef {
  agent: string;
  [key: string]: unknown;
}

/**
 * Why this checkpoint's files cannot be restored, or undefined when they can. The one rule
 * for which checkpoints can be restored: restore itself, the picker's modes and its
 * preview all ask it. Takes a record or a picker row alike.
 */
export function whyUnrestorable(checkpoint: { unrestorable?: boolean; lost?: string }): string | undefined {
  if (checkpoint.unrestorable !== true) return undefined;
  return `its files are no longer restorable: ${checkpoint.lost ?? "the project's own git gc pruned objects it needs"}`;
}

/** One checkpoint: a line of checkpoints.jsonl. */
export interface CheckpointRecord {
  id: number;
  commit: string;
  tree: string;
  time: string;
  session: string | null;
  agent: string | null;
  /** The agent's own session id (Claude Code's, say), when its hook gave one. */
  agentSession?: string;
  trigger: string;
  label: string;
  /** True when the tree equalled the previous checkpoint's, so no commit was made. */
  deduped: boolean;
  /** Files that differ between the previous checkpoint and this one (null: unknown). */
  changedSincePrevious: number | null;
  /** Which (the first 100); absent in older records. */
  changedPaths?: string[];
  /** The same changes by kind (absent for a first checkpoint and in older records). */
  changes?: { added: number; modified: number; deleted: number };
  skipped: SkippedFile[];
  /** Nested repositories and submodules, kept as gitlinks: their own files are not in the checkpoint. */
  nested: string[];
  /** The project's HEAD commit when the checkpoint was taken (recorded, never linked). */
  projectHead: string | null;
  conversation: ConversationRef | null;
  /** Staged from the paths the app's watcher saw change, not a walk of the whole tree: exact
   * if nothing was missed; confirmed once a later full scan found nothing missed
   * (StoreState.scanConfirmedThrough). Absent: a full scan. */
  fromChangedPaths?: true;
  /** Set once objects this checkpoint needs were found missing (pruned by the project's own
   * gc): it is still listed, but can no longer be restored. */
  unrestorable?: boolean;
  /** Why, when it was not the project's gc (the shadow repository itself was lost). */
  lost?: string;
  /** Brought in by `rewind import` from another store (tools/importBundle.ts): where it came from. */
  imported?: ImportedFrom;
}

/** Where an imported checkpoint came from: the same checkpoint is never imported twice. */
export interface ImportedFrom {
  /** The exporting project's folder name. */
  from: string;
  /** Its id there. */
  id: number;
  /** Its commit in the exporting store (what tells it apart from every other checkpoint). */
  commit: string;
  /** When it was imported. */
  at: string;
}
