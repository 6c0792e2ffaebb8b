// Opening a project's checkpoints for a command, what every command shares (git found, the
// settings read, the engine opened with a progress line and the lock's wait said, the list
// recovered, a restore cut off said), and `openSnapshotter`: that alone, on the engine
// without the parts above snapshot, for `rewind snapshot` (a process a script starts for each
// checkpoint). The whole engine, with retention applied on opening, is open.ts's.
import path from 'node:path';
import { waitMs } from '../../shared/seams.js';
import { openSnapshotEngine, requireGit, type OpenMore, type Snapshotter } from '../../checkpoints/index.js';
import { effectiveConfig } from './effectiveConfig.js';
import type { RewindConfig } from '../../config/schema.js';
import { writeLine, type CommandIO } from './io.js';
import { progressLine } from './progressLine.js';

/** How a command opens: the home folder allowed, a cut-off restore left unsaid (the command says it itself), the settings it already read. */
export interface OpenChoices {
  allowHome?: boolean;
  quietAboutInterrupted?: boolean;
  /** The settings the command already read (effectiveConfig, its warnings said once), else read here. */
  config?: RewindConfig;
}

/** An opener of the checkpoints index.ts hands out (openEngine, openSnapshotEngine). */
export type Opener<C extends Snapshotter> = (cwd: string, config: RewindConfig, env: NodeJS.ProcessEnv, more: OpenMore) => C;

/** Opens the checkpoints of the project at `-C DIR` (or the current folder) through `open`, the list recovered and what needs saying said. */
export async function openProject<C extends Snapshotter>(io: CommandIO, dir: string | undefined, options: OpenChoices, open: Opener<C>): Promise<{ checkpoints: C; config: RewindConfig }> {
  requireGit(io.env);
  const config = options.config ?? (await effectiveConfig(io));
  const checkpoints = open(path.resolve(io.cwd, dir ?? '.'), config, io.env, {
    allowHome: options.allowHome,
    onProgress: progressLine(io),
    lockWaitMs: waitMs('lock-wait'),
    onLockWait: (holder, waitMs) => writeLine(io.stderr, `rewind: another rewind is working on this project (${holder}): waiting for it, ${waitMs >= 1000 ? `${Math.round(waitMs / 1000)} s` : `${waitMs} ms`} at most`),
  });
  for (const warning of await checkpoints.recoverList()) writeLine(io.stderr, `rewind: warning: ${warning}`);
  const interrupted = options.quietAboutInterrupted ? undefined : checkpoints.interruptedRestore();
  if (interrupted) writeLine(io.stderr, `rewind: warning: ${interrupted}`);
  return { checkpoints, config };
}

/** The checkpoints of the project at `-C DIR` to take one: no retention, none of the engine's parts above snapshot loaded. */
export function openSnapshotter(io: CommandIO, dir: string | undefined, options: OpenChoices = {}): Promise<{ checkpoints: Snapshotter; config: RewindConfig }> {
  return openProject(io, dir, options, openSnapshotEngine);
}
