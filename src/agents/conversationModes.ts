import type { ModeState, RestoreMode } from '../shared/restoreModes.js';
import { filesOnly } from './generic.js';

/**
 * The modes of an agent whose conversation Rewind restores: all three for a checkpoint
 * that kept its conversation, files only (and why) for one that did not (taken on an Enter
 * or a file change, or before the agent's first hook call).
 */
export function conversationModes(checkpoint: { conversation: unknown }): Record<RestoreMode, ModeState> {
  if (checkpoint.conversation) return { both: { enabled: true }, files: { enabled: true }, conversation: { enabled: true } };
  return filesOnly("no conversation was kept with this checkpoint (only those taken before the agent's own steps keep one): files only");
}
