// Kept only for the app's current caller (src/app/runSession.ts): the app is to call
// loadConfigLenient itself and show its problems in the status line (issue 11, item 15).
import { loadConfigLenient } from './lenient.js';
import type { RewindConfig } from './schema.js';

/**
 * The effective config, as loadConfigLenient gives it (bad keys take their defaults).
 * @deprecated drops the problems: use loadConfigLenient and show them.
 */
export async function loadConfigFast(env: NodeJS.ProcessEnv = process.env): Promise<RewindConfig> {
  return (await loadConfigLenient(env)).config;
}
