// The modes of a checkpoint for an agent whose conversation Rewind restores, and why a
// checkpoint that kept none is files only, in the user's words.
import { describe, expect, it } from 'vitest';
import { conversationModes } from '../../src/agents/conversationModes.js';

describe('conversationModes', () => {
  it('all three with a kept conversation; files only without, saying which checkpoints keep one', () => {
    expect(conversationModes({ conversation: { agent: 'claude' } })).toEqual({ both: { enabled: true }, files: { enabled: true }, conversation: { enabled: true } });
    const off = { enabled: false, reason: "no conversation was kept with this checkpoint (only those taken before the agent's own steps keep one): files only" };
    expect(conversationModes({ conversation: null })).toEqual({ both: off, files: { enabled: true }, conversation: off });
  });
});
