// Where an imported conversation's transcript goes on this machine (`rewind import`): each
// agent's adapter says, from the environment the import runs in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

  it("Gemini CLI: this project's chats folder under the name Gemini's registry gives it here; none before Gemini has run in it", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'rewind-relocate-gemini-'));
    try {
      const env = { GEMINI_CLI_HOME: home };
      const from = '/home/alice/.gemini/tmp/api/chats/session-2026-12-01T10-00-0b7e3a52.jsonl';
      expect(geminiConversation.relocate?.(from, '/srv/bob/api', env)).toBeNull();
      fs.mkdirSync(path.join(home, '.gemini', 'tmp', 'api-1'), { recursive: true });
      fs.writeFileSync(path.join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { '/srv/bob/api': 'api-1', '/srv/other': '../up' } }));
      expect(geminiConversation.relocate?.(from, '/srv/bob/api', env)).toBe(path.join(home, '.gemini', 'tmp', 'api-1', 'chats', 'session-2026-12-01T10-00-0b7e3a52.jsonl'));
      // Its folder's marker names the project: still it; names another: not taken.
      fs.writeFileSync(path.join(home, '.gemini', 'tmp', 'api-1', '.project_root'), '/srv/bob/api\n');
      expect(geminiConversation.relocate?.(from, '/srv/bob/api', env)).toContain('/api-1/chats/');
      fs.writeFileSync(path.join(home, '.gemini', 'tmp', 'api-1', '.project_root'), '/srv/someone-else\n');
      expect(geminiConversation.relocate?.(from, '/srv/bob/api', env)).toBeNull();
      // A name that would climb out of tmp/ is never used.
      expect(geminiConversation.relocate?.(from, '/srv/other', env)).toBeNull();
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('the demo agent: left where it was', () => {
    expect(demoConversation.relocate?.('/tmp/x.jsonl', '/srv/api', {})).toBeUndefined();
  });
});
