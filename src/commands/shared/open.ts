import { openEngine, type ProjectCheckpoints } from '../../checkpoints/index.js';
import { messageOf } from '../../shared/errors.js';
import type { RewindConfig } from '../../config/schema.js';
import { writeLine, type CommandIO } from './io.js';
import { openProject, type OpenChoices } from './opening.js';

/**
 * Opens the checkpoints of the project at `-C DIR` (or the current folder), the whole engine
 * (opening.ts), and applies retention when it is due (unless `retention: false`), keeping
 * the checkpoints the command is about to use (`keep`).
 */
export async function openCheckpoints(io: CommandIO, dir: string | undefined, options: OpenChoices & { retention?: boolean; keep?: readonly number[] } = {}): Promise<{ checkpoints: ProjectCheckpoints; config: RewindConfig }> {
  const opened = await openProject(io, dir, options, openEngine);
  if (options.retention !== false) await retainOnOpen(io, opened.checkpoints, opened.config, options.keep ?? []);
  return opened;
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
