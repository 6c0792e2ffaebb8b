import { fileURLToPath } from 'node:url';
import { shellWord } from '../shared/shellWord.js';

/**
 * The hook command an agent's settings name: `sh <rewind>/hooks/rewind-hook.sh <agent>
 * <event>`. It is the same on every run (Codex trusts hooks by a hash of their definition);
 * what differs per run (the app's channel) travels in the environment (REWIND_SOCKET).
 */
export function hookCommand(agent: string, event: string): string {
  const script = fileURLToPath(new URL('../hooks/rewind-hook.sh', import.meta.url));
  return `sh ${shellWord(script)} ${agent} ${event}`;
}
