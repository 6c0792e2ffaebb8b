import type { AgentAdapter } from './agentAdapter.js';
import type { ModeState, RestoreMode } from '../shared/restoreModes.js';

/** The modes of an agent whose conversation Rewind cannot restore: files only, and why. */
export function filesOnly(reason: string): Record<RestoreMode, ModeState> {
  const off = { enabled: false, reason };
  return { both: off, files: { enabled: true }, conversation: off };
}

/**
 * Any command Rewind knows nothing about: checkpoints on Enter and after bursts of file
 * changes, busy while its output flows, files only.
 */
export const genericAgent: AgentAdapter = {
  name: 'generic',
  handles: () => true,
  launch: (launch) => launch,
  activity: 'output',
  restoreModes: () => filesOnly('this agent has no conversation support in rewind (generic agent): files only'),
};
