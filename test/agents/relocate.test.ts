// Where an imported conversation's transcript goes on this machine (`rewind import`): each
// agent's adapter says, from the environment the import runs in.
import { describe, expect, it } from 'vitest';
import { claudeRelocate } from '../../src/agents/claude/conversation.js';
import { codexRelocate } from '../../src/agents/codex/conversation.js';
import { demoConversation } from '../../src/agents/demo/conversation.js';
import { geminiConversation } from '../../src/agents/gemini/conversation.js';

describe('an imported transcript, relocated', () => {
  it("Claude Code: this machine's config folder, this project's slug, the same file name", () => {
    const from = '/home/alice/.claude/projects/-home-alice-work-api/0b7e3a52-3c1e-4f7a-9d51-2f4c8e6a1b90.jsonl';
    expect(claudeRelocate(from, '/srv/bob/api.v2', { CLAUDE_CONFIG_DIR: '/cfg/claude' })).toBe('/cfg/claude/projects/-srv-bob-api-v2/0b7e3a52-3c1e-4f7a-9d51-2f4c8e6a1b90.jsonl');
    expect(claudeRelocate(from, '/srv/api', { HOME: '/home/bob' })).toBe('/home/bob/.claude/projects/-srv-api/0b7e3a52-3c1e-4f7a-9d51-2f4c8e6a1b90.jsonl');
    // A slug Claude would cut and hash: not guessed.
    expect(claudeRelocate(from, `/${'x'.repeat(210)}`, { HOME: '/home/bob' })).toBeUndefined();
  });

  it("Codex: the same folders below this machine's sessions folder", () => {
    const from = '/home/alice/.codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-0b7e3a52.jsonl';
    expect(codexRelocate(from, '/srv/api', { CODEX_HOME: '/cfg/codex' })).toBe('/cfg/codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-0b7e3a52.jsonl');
    expect(codexRelocate('/elsewhere/rollout.jsonl', '/srv/api', { CODEX_HOME: '/cfg/codex' })).toBeUndefined();
  });

  it('Gemini CLI and the demo agent: left where they were', () => {
    expect(geminiConversation.relocate).toBeUndefined();
    expect(demoConversation.relocate?.('/tmp/x.jsonl', '/srv/api', {})).toBeUndefined();
  });
});
