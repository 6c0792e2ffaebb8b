import type { AgentAdapter } from './agentAdapter.js';
import { claudeAgent, claudeLaunch } from './claude.js';
import { claudeConversation } from './claudeConversation.js';

/**
 * Rewind's demo agent (src/demo/agent.ts): it takes Claude Code's settings and sends its
 * payloads, so it is handled as Claude Code is. Chosen by `rewind demo` (`--agent demo`).
 */
export const demoAgent: AgentAdapter = {
  ...claudeAgent,
  name: 'demo',
  handles: () => false,
  launch: (launch) => claudeLaunch(launch, 'demo'),
  conversation: {
    ...claudeConversation,
    // It runs as `node <its script> …`: the script stays first (Claude's rules would take
    // it for a prompt and drop it), and what follows is resumed as Claude's arguments are.
    resumeArgs: (args, session) => [...args.slice(0, 1), ...claudeConversation.resumeArgs(args.slice(1), session)],
  },
};
