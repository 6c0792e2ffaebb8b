import path from 'node:path';
import { testMs } from '../shared/testOverride.js';
import { engineSettings, openProjectCheckpoints, requireGit, type ProjectCheckpoints } from '../checkpoints/index.js';
import { effectiveConfig } from './effectiveConfig.js';
import type { RewindConfig } from '../config/schema.js';
import { rewindHome } from '../config/paths.js';
import { writeLine, type CommandIO } from './io.js';
import { progressLine } from './progressLine.js';

/** Opens the checkpoints of the project at `-C DIR` (or the current folder). */
export async function openCheckpoints(
  io: CommandIO,
  dir: string | undefined,
  options: { allowHome?: boolean; quietAboutInterrupted?: boolean } = {},
): Promise<{ checkpoints: ProjectCheckpoints; config: RewindConfig }> {
  requireGit(io.env);
  const config = await effectiveConfig(io);
  const checkpoints = openProjectCheckpoints({
    cwd: path.resolve(io.cwd, dir ?? '.'),
    settings: engineSettings(config),
    home: rewindHome(io.env),
    env: io.env,
    allowHome: options.allowHome,
    onProgress: progressLine(io),
    // 30 s unless a test sets REWIND_TEST_LOCK_WAIT_MS.
    lockWaitMs: testMs(io.env, 'REWIND_TEST_LOCK_WAIT_MS'),
    onLockWait: (holder, waitMs) => writeLine(io.stderr, `rewind: another rewind is working on this project (${holder}): waiting for it, ${waitMs >= 1000 ? `${Math.round(waitMs / 1000)} s` : `${waitMs} ms`} at most`),
  });
  for (const warning of await checkpoints.recoverList()) writeLine(io.stderr, `rewind: warning: ${warning}`);
  const interrupted = options.quietAboutInterrupted ? undefined : checkpoints.interruptedRestore();
  if (interrupted) writeLine(io.stderr, `rewind: warning: ${interrupted}`);
  return { checkpoints, config };
}
