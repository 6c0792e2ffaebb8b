import { writeLine, type CommandIO } from './io.js';
import { loadConfigLenient } from '../../config/lenient.js';
import type { RewindConfig } from '../../config/schema.js';

/**
 * The settings a command runs with: config.json over the defaults, each bad key of the file
 * said as `rewind: warning: …` on stderr and replaced by its default (a typo never blocks).
 */
export async function effectiveConfig(io: CommandIO): Promise<RewindConfig> {
  const { config, problems } = await loadConfigLenient(io.env);
  for (const problem of problems) writeLine(io.stderr, `rewind: warning: ${problem}`);
  return config;
}
