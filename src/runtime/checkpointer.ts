import path from 'node:path';
import { Checkpoints, type SnapshotOptions } from '../checkpoints/checkpoints.js';
import { splitNul } from '../checkpoints/git.js';
import { shadowGitEnv } from '../checkpoints/gitEnv.js';
import type { CheckpointRecord } from '../checkpoints/record.js';
import type { RewindConfig } from '../config/schema.js';
import { rewindHome } from '../config/paths.js';
import { messageOf } from '../shared/errors.js';
import { engineSettings } from '../checkpoints/settings.js';
import { diskUsage } from './diskUsage.js';
import { resolveCommand } from '../pty/resolveCommand.js';

/** Why checkpoints are off, or the engine when they are on. */
export type CheckpointAvailability = (
  | { on: true; engine: Checkpoints }
  /** No new checkpoints; `engine` is there when earlier ones can still be restored. */
  | { on: false; reason: string; engine?: Checkpoints }
) & {
  /** What went wrong opening them that the user must hear of (one line each). */
  problems?: string[];
};

/** Rebuilds a lost list and repairs the chain (after the project's own gc), saying what failed or was lost. */
async function openingProblems(engine: Checkpoints): Promise<string[]> {
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
export async function openForApp(cwd: string, config: RewindConfig, env: NodeJS.ProcessEnv): Promise<CheckpointAvailability> {
  try {
    // Looked up on PATH (a few stat calls), not run: starting a process costs ~10 ms here.
    await resolveCommand('git', shadowGitEnv(env), cwd);
  } catch {
    return { on: false, reason: 'git not found (install git)' };
  }
  try {
    const engine = Checkpoints.open({ cwd, settings: engineSettings(config), home: rewindHome(env), env });
    const problems = await openingProblems(engine);
    // Turned off: nothing new is taken, but the checkpoints already there can be restored.
    if (config.checkpointing_disabled) return { on: false, reason: 'disabled in config.json', engine, problems };
    return { on: true, engine, problems };
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
    readonly engine: Checkpoints,
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
    this.sizing ??= diskUsage(this.engine.store.root)
      .then((bytes) => {
        this.summary = { ...this.summary, storeBytes: bytes };
      })
      .finally(() => {
        this.sizing = undefined;
        this.onChange();
      });
    this.onChange();
  }

  async snapshot(options: SnapshotOptions): Promise<CheckpointRecord> {
    const { record } = await this.engine.snapshot(options);
    this.refresh();
    return record;
  }

  /** The folders the newest checkpoint holds (what the watcher watches from the start). */
  async folders(): Promise<string[]> {
    const newest = this.engine.list().findLast((record) => !record.unrestorable);
    if (!newest) return [];
    const listed = await this.engine.repo.git(['ls-tree', '-r', '-d', '--name-only', '-z', newest.tree]);
    return splitNul(listed.stdout);
  }

  /** Which of these project-relative paths the project's ignore rules (as checkpoints see them) ignore. */
  async ignored(paths: string[]): Promise<Set<string>> {
    if (paths.length === 0 || !this.engine.repo.exists()) return new Set();
    const result = await this.engine.repo.git(['check-ignore', '-z', '--stdin'], { input: `${paths.join('\0')}\0`, okCodes: [0, 1] });
    return new Set(splitNul(result.stdout));
  }

  /** Disk usage of this project's store and of every project's. */
  async usage(): Promise<{ project: number; all: number; path: string }> {
    const all = await diskUsage(path.dirname(this.engine.store.root));
    return { project: await diskUsage(this.engine.store.root), all, path: this.engine.store.root };
  }
}
