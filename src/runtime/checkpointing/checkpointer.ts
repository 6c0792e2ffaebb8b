import { requireGit, type CheckpointRecord, type ProgressListener, type ProjectCheckpoints, type SnapshotOptions, type SnapshotResult } from '../../checkpoints/index.js';
import type { RewindConfig } from '../../config/schema.js';
import { openEngine } from '../../checkpoints/index.js';
import { messageOf } from '../../shared/errors.js';
import { retainIfDue } from '../../services/store/retention.js';

/** Why checkpoints are off, or the engine when they are on. */
export type CheckpointAvailability = (
  | { on: true; engine: ProjectCheckpoints }
  /** No new checkpoints; `engine` is there when earlier ones can still be restored. */
  | { on: false; reason: string; engine?: ProjectCheckpoints }
) & {
  /** What went wrong opening them that the user must hear of (one line each). */
  problems?: string[];
  /** Applies retention if it is due (config.json's policy): what it did, in words, if anything. */
  retain?: () => Promise<string | undefined>;
};

/** Rebuilds a lost list and repairs the chain (after the project's own gc), saying what failed or was lost. */
async function openingProblems(engine: ProjectCheckpoints): Promise<string[]> {
  const problems: string[] = [];
  await engine
    .recoverList()
    .then((healed) => problems.push(...healed))
    .catch((error: unknown) => problems.push(`the checkpoint list could not be rebuilt: earlier checkpoints are not listed (${messageOf(error)})`));
  try {
    const repaired = await engine.maintain();
    if (repaired && repaired.broken.length > 0) {
      problems.push(`checkpoint(s) ${repaired.broken.map((id) => `#${id}`).join(', ')} can no longer be restored: the project's own git gc pruned files they borrowed`);
    }
  } catch (error) {
    problems.push(`checkpoint repair failed: older checkpoints may not restore, new ones are still taken (${messageOf(error)})`);
  }
  return problems;
}

/**
 * Opens the project's checkpoints for the app, or says in a few words why not: git
 * missing, the folder refused ($HOME, /), checkpointing disabled in config. The agent runs
 * either way.
 */
export async function openForApp(cwd: string, config: RewindConfig, env: NodeJS.ProcessEnv, onProgress?: ProgressListener): Promise<CheckpointAvailability> {
  try {
    // Looked up on PATH (a few stat calls), not run: starting a process costs ~10 ms here.
    requireGit(env);
  } catch {
    return { on: false, reason: 'git not found (install git)' };
  }
  try {
    const engine = openEngine(cwd, config, env, { onProgress });
    const problems = await openingProblems(engine);
    const retain = () => retainIfDue(engine, config);
    // Turned off: nothing new is taken, but the checkpoints already there can be restored.
    if (config.checkpointing_disabled) return { on: false, reason: 'disabled in config.json', engine, problems, retain };
    return { on: true, engine, problems, retain };
  } catch (error) {
    const message = messageOf(error);
    const reason = /home folder/.test(message) ? 'this is your home folder' : message.length > 60 ? `${message.slice(0, 57)}…` : message;
    return { on: false, reason };
  }
}

/** What the status line shows of the checkpoints, refreshed after each snapshot. */
export interface CheckpointSummary {
  count: number;
  newest?: CheckpointRecord;
  storeBytes?: number;
}

/**
 * The app's access to checkpoints: snapshots are serialised (the engine's lock queues
 * them), failures become notices, and the summary stays current.
 */
export class Checkpointer {
  summary: CheckpointSummary = { count: 0 };
  private sizing: Promise<void> | undefined;

  constructor(
    readonly engine: ProjectCheckpoints,
    private readonly onChange: () => void,
  ) {
    this.refresh();
  }

  /** Re-reads the list (and, at most one at a time, the store's disk usage). */
  refresh(): void {
    try {
      const list = this.engine.list();
      this.summary = { ...this.summary, count: list.length, newest: list.at(-1) };
    } catch {
      // A damaged list is reported when the picker opens.
    }
    this.sizing ??= this.engine
      .projectBytes()
      .then((bytes) => {
        this.summary = { ...this.summary, storeBytes: bytes };
      })
      .finally(() => {
        this.sizing = undefined;
        this.onChange();
      });
    this.onChange();
  }

  async snapshot(options: SnapshotOptions): Promise<SnapshotResult> {
    const result = await this.engine.snapshot(options);
    this.refresh();
    return result;
  }

  /** The folders the newest checkpoint holds (what the watcher watches from the start). */
  folders(): Promise<string[]> {
    return this.engine.folders();
  }

  /** Which of these project-relative paths the project's ignore rules (as checkpoints see them) ignore. */
  ignored(paths: string[]): Promise<Set<string>> {
    return this.engine.ignored(paths);
  }
}
