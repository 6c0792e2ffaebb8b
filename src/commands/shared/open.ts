import path from 'node:path';
import { waitMs } from '../../shared/seams.js';
import { openEngine } from '../../checkpoints/index.js';
import { messageOf } from '../../shared/errors.js';
import { requireGit, type ProjectCheckpoints } from '../../checkpoints/index.js';
import { effectiveConfig } from './effectiveConfig.js';
import type { RewindConfig } from '../../config/schema.js';
import { writeLine, type CommandIO } from './io.js';
import { progressLine } from './progressLine.js';

/**
 * Opens the checkpoints of the project at `-C DIR` (or the current folder) and applies
 * retention when it is due (not for `retention: false`: a snapshot's hot path), keeping the
 * checkpoints the command is about to use (`keep`). `config`: the settings the command
 * already read (effectiveConfig, its warnings said once), else read here.
 */
export async function openCheckpoints(
  io: CommandIO,
  dir: string | undefined,
  options: { allowHome?: boolean; quietAboutInterrupted?: boolean; retention?: boolean; keep?: readonly number[]; config?: RewindConfig } = {},
): Promise<{ checkpoints: ProjectCheckpoints; config: RewindConfig }> {
  requireGit(io.env);
  const config = options.config ?? (await effectiveConfig(io));
  const checkpoints = openEngine(path.resolve(io.cwd, dir ?? '.'), config, io.env, {
    allowHome: options.allowHome,
    onProgress: progressLine(io),
    lockWaitMs: waitMs('lock-wait'),
    onLockWait: (holder, waitMs) => writeLine(io.stderr, `rewind: another rewind is working on this project (${holder}): waiting for it, ${waitMs >= 1000 ? `${Math.round(waitMs / 1000)} s` : `${waitMs} ms`} at most`),
  });
  for (const warning of await checkpoints.recoverList()) writeLine(io.stderr, `rewind: warning: ${warning}`);
  const interrupted = options.quietAboutInterrupted ? undefined : checkpoints.interruptedRestore();
  if (interrupted) writeLine(io.stderr, `rewind: warning: ${interrupted}`);
  if (options.retention !== false) await retainOnOpen(io, checkpoints, config, options.keep ?? []);
  return { checkpoints, config };
}

async function retainOnOpen(io: CommandIO, checkpoints: ProjectCheckpoints, config: RewindConfig, keep: readonly number[]): Promise<void> {
  try {
    const { retainIfDue } = await import('../../services/store/retention.js');
    const said = await retainIfDue(checkpoints, config, keep);
    if (said) writeLine(io.stderr, `rewind: retention: ${said}`);
  } catch (error) {
    writeLine(io.stderr, `rewind: warning: retention did not run (${messageOf(error)}); \`rewind prune\` tries again`);
  }
}
