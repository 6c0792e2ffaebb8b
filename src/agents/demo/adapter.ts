import type { AgentAdapter } from '../agentAdapter.js';
import { claudeAgent, claudeLaunch } from '../claude/adapter.js';
import { demoConversation } from './conversation.js';

/**
 * Rewind's demo agent (src/demo/agent.ts): it takes Claude Code's settings and sends its
 * payloads, so it is handled as Claude Code is. Chosen by `rewind demo` (`--agent demo`).
 */
export const demoAgent: AgentAdapter = {
  ...claudeAgent,
  name: 'demo',
  handles: () => false,
  launch: (launch) => claudeLaunch(launch, 'demo'),
  conversation: demoConversation,
};
