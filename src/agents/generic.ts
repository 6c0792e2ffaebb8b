import type { AgentAdapter } from './agentAdapter.js';

const noConversation = { enabled: false, reason: 'this agent has no conversation support in rewind (generic agent): files only' };

/**
 * Any command Rewind knows nothing about: checkpoints on Enter and after bursts of file
 * changes, busy while its output flows, files only.
 */
export const genericAgent: AgentAdapter = {
  name: 'generic',
  handles: () => true,
  launch: (launch) => launch,
  activity: 'output',
  restoreModes: () => ({ both: noConversation, files: { enabled: true }, conversation: noConversation }),
};
