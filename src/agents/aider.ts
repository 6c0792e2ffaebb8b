import type { AgentAdapter } from './agentAdapter.js';
import { filesOnly, genericAgent } from './generic.js';

/**
 * aider: no hooks (checkpoints on Enter and after file changes, as for any command), and
 * its conversation is not restored: its chat history is a Markdown log it reloads whole
 * with --restore-chat-history, with no session to resume at a point.
 */
export const aiderAgent: AgentAdapter = {
  ...genericAgent,
  name: 'aider',
  handles: (command) => command === 'aider',
  restoreModes: () =>
    filesOnly("rewind restores aider's files only: its chat is a log it reloads whole (--restore-chat-history), with no point to resume at; its own git commits are yours and left alone"),
};
